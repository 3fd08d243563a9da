//go:build !unix

package filestat

import (
	"os"
	"path/filepath"
)

// At states one file of the folder dir without following a symlink.
func At(_ int, dir string, f *Stat) {
	if fi, err := os.Lstat(filepath.Join(dir, f.Name)); err == nil && fi.Mode().IsRegular() {
		f.Size, f.Mtime, f.Regular = fi.Size(), fi.ModTime().UnixNano(), true
	}
}

// File states one file (an absolute path) as Scan does.
func File(p string) (Stat, bool) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return Stat{}, false
	}
	return Stat{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Regular: true}, true
}

// Dir gives a folder's modification time (no change time here); false
// when it is missing or not a folder.
func Dir(p string) (mtime, ctime int64, ok bool) {
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return 0, 0, false
	}
	return fi.ModTime().UnixNano(), 0, true
}
