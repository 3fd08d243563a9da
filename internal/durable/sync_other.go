//go:build !linux && !darwin && !windows

package durable

import "os"

// SyncAll has nothing left to do here: without a file-system-wide sync
// that waits, every file and folder written for later was synced when
// written (Later, LaterDir).
func SyncAll(string) error { return nil }

// Later fsyncs a file written without a sync, before it is closed.
func Later(f *os.File) error { return f.Sync() }

// LaterDir fsyncs a folder whose entries changed (rename, remove).
func LaterDir(dir string) error { return syncDir(dir) }

// SyncDir makes a folder's entries durable now.
func SyncDir(dir string) error { return syncDir(dir) }
