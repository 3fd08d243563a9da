//go:build !linux

package watch

import (
	"io"
	"os"
)

// listFolder calls found for each subfolder of the folder p, and with all
// for each of its other entries too.
func listFolder(p string, all bool, found func(name string, folder bool)) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		entries, err := f.ReadDir(1024)
		for _, e := range entries {
			if e.IsDir() || all {
				found(e.Name(), e.IsDir())
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
