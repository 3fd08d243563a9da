package mdstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"unicode/utf8"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/safepath"
)

// MaxRecordSize is the largest record file curator reads (1 MiB).
const MaxRecordSize = 1 << 20

// InvalidFileOf is the invalid file that err, an error reading the record
// at path, reports (its line where the frontmatter says).
func InvalidFileOf(path string, err error) *InvalidFile {
	var fe *frontmatter.Error
	if errors.As(err, &fe) {
		return &InvalidFile{Path: path, Line: fe.Line, Msg: fe.Msg}
	}
	var inv *InvalidFile
	if errors.As(err, &inv) {
		return inv
	}
	return &InvalidFile{Path: path, Msg: err.Error()}
}

// ReadDocument reads a record file (store-relative path) with the checks every record gets
// (see readRecordFile) and parses its frontmatter.
func (s *Store) ReadDocument(rel string) (*frontmatter.Document, error) {
	data, err := s.readRecordFile(rel)
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, &InvalidFile{Path: rel, Msg: "binary file (contains NUL bytes)"}
	}
	if !utf8.Valid(data) {
		return nil, &InvalidFile{Path: rel, Line: invalidUTF8Line(data), Msg: "invalid UTF-8"}
	}
	if bytes.HasPrefix(data, byteOrderMark) {
		return nil, bomError(rel)
	}
	d, err := frontmatter.Parse(data)
	if err != nil {
		return nil, InvalidFileOf(rel, err)
	}
	return d, nil
}

// ReadBody is the body of the record file rel, its frontmatter split off
// but not parsed: for a file whose fields were read and checked already
// (a live listing's), so that its text costs no YAML. The checks of the
// bytes are ReadDocument's.
func (s *Store) ReadBody(rel string) (string, error) {
	data, err := s.readRecordFile(rel)
	if err != nil {
		return "", err
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", &InvalidFile{Path: rel, Msg: "binary file (contains NUL bytes)"}
	}
	if !utf8.Valid(data) {
		return "", &InvalidFile{Path: rel, Line: invalidUTF8Line(data), Msg: "invalid UTF-8"}
	}
	if bytes.HasPrefix(data, byteOrderMark) {
		return "", bomError(rel)
	}
	d, err := frontmatter.Split(data)
	if err != nil {
		return "", InvalidFileOf(rel, err)
	}
	return string(d.Body()), nil
}

// byteOrderMark is UTF-8's byte-order mark, which some editors put first.
var byteOrderMark = []byte("\xef\xbb\xbf")

// bomError refuses a record that starts with a byte-order mark: its
// frontmatter would not be found, and the record read as having none.
func bomError(rel string) error {
	return &InvalidFile{Path: rel, Line: 1, Msg: "starts with a UTF-8 byte-order mark: save the file without it (a record starts with ---)"}
}

// readRecordFile reads a record file after the checks of the path itself: no
// symlink out of the store, a regular file, at most 1 MiB.
func (s *Store) readRecordFile(rel string) ([]byte, error) {
	abs := s.Path(rel)
	fi, err := os.Lstat(abs)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		if err := safepath.Inside(s.Dir, abs); err != nil {
			return nil, &InvalidFile{Path: rel, Msg: "symlink leads outside the store"}
		}
		if fi, err = os.Stat(abs); err != nil {
			return nil, err
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, &InvalidFile{Path: rel, Msg: "not a regular file"}
	}
	if fi.Size() > MaxRecordSize {
		return nil, &InvalidFile{Path: rel, Msg: fmt.Sprintf("file is %d bytes, over the 1 MiB limit", fi.Size())}
	}
	return os.ReadFile(abs)
}

func invalidUTF8Line(data []byte) int {
	line := 1
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r == utf8.RuneError && n <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		data = data[n:]
	}
	return 0
}
