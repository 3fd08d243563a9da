package durable

import (
	"os"

	"golang.org/x/sys/unix"
)

// SyncAll makes every write to the file system holding dir durable with one
// call (syncfs), instead of one fsync per file.
func SyncAll(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}

// Later is called on a file written without a sync, before it is closed:
// nothing to do here, SyncAll covers it.
func Later(*os.File) error { return nil }

// LaterDir is called on a folder whose entries changed without a sync
// (rename, remove): nothing to do here, SyncAll covers it.
func LaterDir(string) error { return nil }

// SyncDir makes a folder's entries durable now.
func SyncDir(dir string) error { return syncDir(dir) }
