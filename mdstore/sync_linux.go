package mdstore

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncAll makes every write to the file system holding dir durable with one
// call (syncfs), instead of one fsync per file.
func syncAll(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
