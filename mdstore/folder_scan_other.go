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

// statFile stats one file (an absolute path) as a folder scan does.
func statFile(p string) (fileStat, bool) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return fileStat{}, false
	}
	return fileStat{size: fi.Size(), mtime: fi.ModTime().UnixNano(), regular: true}, true
}
