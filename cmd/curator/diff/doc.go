// Package diffcmd is `curator diff`: the record changes between two states
// of the store (its work tree, git's index, any revision), as text, JSON or
// a markdown review; and `curator show`: what one run (one commit) did.
package diffcmd
