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

// statDir gives a folder's modification time; false when it is missing or
// not a folder.
func statDir(p string) (folderStat, bool) {
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return folderStat{}, false
	}
	return folderStat{mtime: fi.ModTime().UnixNano()}, true
}
