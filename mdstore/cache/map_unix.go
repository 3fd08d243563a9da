//go:build unix

package cache

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps a file read-only, its pages mapped at once where the system
// can (the caller reads them all: its checksum). The mapping is never released: strings
// made from its bytes may be kept anywhere. A file that is empty or cannot
// be mapped is read instead.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if size := fi.Size(); fi.Mode().IsRegular() && size > 0 && size == int64(int(size)) {
		if b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED|mapPopulate); err == nil {
			return b, nil
		}
	}
	return os.ReadFile(path)
}
