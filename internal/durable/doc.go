// Package durable makes curator's file writes survive a crash or a power
// cut: files are replaced atomically (temporary file and rename), and a
// run's many writes are made durable together at its end.
//
// On Linux one syncfs call at the end of a run makes every write on the
// file system durable. Other systems have no such call, so there each file
// written "for later" is synced as it is written (Later, LaterDir) and the
// run's final SyncAll only flushes what remains (the drive's cache on
// macOS). The result is as durable, at the cost of one sync per file.
package durable
