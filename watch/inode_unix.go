//go:build unix

package watch

import (
	"io/fs"
	"syscall"
)

// inode is the file's inode number: a file renamed over another one is a
// new file even with the same size and time.
func inode(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
