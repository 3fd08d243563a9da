// Package watchcmd is `curator watch`: its flags, and the events of the
// watch (watchmode) printed one a line, or as JSON lines with --json.
package watchcmd
