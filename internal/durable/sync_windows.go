package durable

import "os"

// SyncAll has nothing left to do on Windows: there is no file-system-wide
// sync an unprivileged process may call, so every file written for later
// was flushed when written (Later).
func SyncAll(string) error { return nil }

// Later flushes a file written without a sync, before it is closed
// (FlushFileBuffers, which also flushes the drive's cache).
func Later(f *os.File) error { return f.Sync() }

// LaterDir does nothing: Windows cannot flush a folder. NTFS records
// renames and removals in its own journal, which it commits within
// seconds; a power cut in that window can lose the last renames.
func LaterDir(string) error { return nil }

// SyncDir does nothing, as LaterDir.
func SyncDir(string) error { return nil }
