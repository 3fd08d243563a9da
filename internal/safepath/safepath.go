package safepath

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// ErrUnsafeID means an id cannot be used as a file name.
var ErrUnsafeID = errors.New("id is not a safe file name")

// ErrOutsideStore means a path, or a symlink on it, leads out of the store.
var ErrOutsideStore = errors.New("path leads outside the store")

// CheckID accepts ids that are safe as a single file name: not empty, no path
// separators, not "." or "..", no control characters, at most 200 bytes.
func CheckID(id string) error {
	switch {
	case id == "", id == ".", id == "..":
	case len(id) > 200:
	case strings.ContainsAny(id, `/\`), strings.Contains(id, ".."):
	case strings.IndexFunc(id, unicode.IsControl) >= 0:
	case strings.HasPrefix(id, "."):
	default:
		return nil
	}
	return fmt.Errorf("%w: %q", ErrUnsafeID, id)
}

// Inside checks that an existing path does not leave root through a symlink.
func Inside(root, path string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(rootReal, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%w: %s", ErrOutsideStore, path)
	}
	return nil
}
