//go:build !unix

package gittree

import (
	"errors"
	"os"
)

// mapFile is not done here: packs are read with ReadAt.
func mapFile(*os.File, int64) ([]byte, error) { return nil, errors.New("no mmap") }

func unmapFile([]byte) error { return nil }
