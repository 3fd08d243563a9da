//go:build unix

package store

import (
	"os"
	"syscall"
)

// openNoFollow opens a file for writing, refusing a symlink at path.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|syscall.O_NOFOLLOW, 0)
}
