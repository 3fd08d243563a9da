// Package logcmd is `curator log`: the runs curator recorded in the
// store's git history, newest first, or the life of one record (a memory,
// or a bullet with its version chain) across the commits that changed it.
package logcmd
