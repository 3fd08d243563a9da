//go:build !unix

package store

import (
	"fmt"
	"os"

	"github.com/curator-dev/curator/internal/safepath"
)

// openNoFollow opens a file for writing, refusing a symlink, junction or
// other reparse point at path (checked by Lstat just before: there is no
// O_NOFOLLOW here, so a link made between the check and the open is
// followed).
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", safepath.ErrOutsideStore, path)
	}
	return os.OpenFile(path, os.O_WRONLY, 0)
}
