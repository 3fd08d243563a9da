// Package logcmd is `curator log`: the runs curator recorded in the
// store's git history, newest first.
package logcmd
