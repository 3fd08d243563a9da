//go:build unix

package gittree

import (
	"os"
	"syscall"
)

// mapFile maps a pack file read-only (git never rewrites a pack in place:
// a repack writes new ones and removes the old, which stay mapped).
func mapFile(f *os.File, size int64) ([]byte, error) {
	if size <= 0 || int64(int(size)) != size {
		return nil, syscall.EINVAL
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(b []byte) error { return syscall.Munmap(b) }
