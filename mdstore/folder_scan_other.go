//go:build !unix

package mdstore

import (
	"os"
	"path/filepath"
)

// statAt stats one file of the folder dir without following a symlink.
func statAt(_ int, dir string, f *fileStat) {
	if fi, err := os.Lstat(filepath.Join(dir, f.name)); err == nil && fi.Mode().IsRegular() {
		f.size, f.mtime, f.regular = fi.Size(), fi.ModTime().UnixNano(), true
	}
}
