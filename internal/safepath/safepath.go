package safepath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrUnsafeID means an id cannot be used as a file name.
var ErrUnsafeID = errors.New("id is not a safe file name")

// ErrOutsideStore means a path, or a symlink on it, leads out of the store.
var ErrOutsideStore = errors.New("path leads outside the store")

// CheckID accepts ids that are safe as a single file name and read as what
// they are: not empty, no path separators, not "." or "..", no leading dot,
// at most 200 bytes, valid UTF-8, no space at either end, and no control or
// format character (Unicode Cc and Cf: bidi overrides, zero-width
// characters, the byte-order mark), which would make one id look like
// another.
func CheckID(id string) error {
	switch {
	case id == "", id == ".", id == "..":
	case len(id) > 200:
	case strings.ContainsAny(id, `/\`), strings.Contains(id, ".."):
	case strings.HasPrefix(id, "."):
	default:
		if why := unreadable(id); why != "" {
			return fmt.Errorf("%w: %q %s", ErrUnsafeID, id, why)
		}
		return nil
	}
	return fmt.Errorf("%w: %q", ErrUnsafeID, id)
}

// unreadable says why an id does not read as what it is ("" when it does).
func unreadable(id string) string {
	if !utf8.ValidString(id) {
		return "is not valid UTF-8"
	}
	first, _ := utf8.DecodeRuneInString(id)
	last, _ := utf8.DecodeLastRuneInString(id)
	switch {
	case unicode.IsSpace(first):
		return "starts with a space; remove it"
	case unicode.IsSpace(last):
		return "ends with a space; remove it"
	}
	for _, r := range id {
		switch {
		case isBidi(r):
			return fmt.Sprintf("holds %U, a bidi control that changes how it reads; remove it", r)
		case unicode.Is(unicode.Cc, r):
			return fmt.Sprintf("holds %U, a control character; remove it", r)
		case unicode.Is(unicode.Cf, r):
			return fmt.Sprintf("holds %U, an invisible format character; remove it", r)
		}
	}
	return ""
}

// isBidi reports the bidi embeddings, overrides and isolates
// (U+202A–U+202E, U+2066–U+2069).
func isBidi(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
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

// ReadInside reads the file at path, which must not lead out of root
// through a symlink. A file that is gone, or that leads out, is
// fs.ErrNotExist: for the reader there is no such file.
func ReadInside(root, path string) ([]byte, error) {
	if _, err := os.Lstat(path); err != nil {
		return nil, err
	}
	if err := Inside(root, path); err != nil {
		return nil, fmt.Errorf("%w: %s", fs.ErrNotExist, err)
	}
	return os.ReadFile(path)
}
