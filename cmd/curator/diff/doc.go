// Package diffcmd is `curator diff`: the record changes between two states
// of the store's git history, as text, JSON or a markdown review.
package diffcmd
