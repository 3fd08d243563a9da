package durable

import (
	"os"

	"golang.org/x/sys/unix"
)

// SyncAll asks the drive holding dir to write its cache to the medium
// (F_FULLFSYNC). macOS has no file-system-wide sync that waits: the files
// and folders written for later were fsynced one by one when written
// (Later, LaterDir), which hands their data to the drive; this one call
// then makes all of it durable.
func SyncAll(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := unix.FcntlInt(f.Fd(), unix.F_FULLFSYNC, 0); err != nil {
		return unix.Fsync(int(f.Fd())) // a file system without F_FULLFSYNC
	}
	return nil
}

// Later fsyncs a file written without a sync, before it is closed: a
// plain fsync, which hands the data to the drive; SyncAll flushes the
// drive's cache once for the whole run.
func Later(f *os.File) error { return unix.Fsync(int(f.Fd())) }

// LaterDir fsyncs a folder whose entries changed (rename, remove).
func LaterDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Fsync(int(f.Fd()))
}

// SyncDir makes a folder's entries durable now, through the drive's cache
// (Go's Sync is F_FULLFSYNC on macOS).
func SyncDir(dir string) error { return syncDir(dir) }
