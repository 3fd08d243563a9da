package mdstore

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/mdstore/layout"
)

// ErrUnreadable means a run would have written a record that curator could
// not read back (over the size limit, NUL bytes, invalid UTF-8, a
// frontmatter that does not parse); nothing was written.
var ErrUnreadable = errors.New("a record would be written that curator cannot read back")

// UnreadableError names the record and why it could not be read back.
type UnreadableError struct {
	Path string
	Msg  string
}

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("%s would be %s; nothing was written", e.Path, e.Msg)
}

func (e *UnreadableError) Unwrap() error { return ErrUnreadable }

// isRecordPath reports whether a store path is read as a record, with the
// checks of ReadDocument: markdown under memory/ and context/.
func isRecordPath(p string) bool {
	return layout.Checked(p)
}

// refuseUnreadable is a guard of Save: every record a run writes must pass
// the checks every read applies, so that nothing is stored that the next
// read, update, delete or hourly pass would refuse.
func (s *Store) refuseUnreadable(c *Changeset) error {
	errs := make([]error, len(c.Changes))
	parallel.For(len(c.Changes), func(i int) {
		ch := c.Changes[i]
		if ch.Delete || ch.Root || !isRecordPath(ch.Path) {
			return
		}
		if msg := unreadable(ch.Data); msg != "" {
			errs[i] = &UnreadableError{Path: ch.Path, Msg: msg}
		}
	})
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// unreadable says why data could not be read back as a record ("" when
// it can).
func unreadable(data []byte) string {
	if len(data) > MaxRecordSize {
		return fmt.Sprintf("%d bytes, over the 1 MiB record limit", len(data))
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "binary (it would contain NUL bytes)"
	}
	if !utf8.Valid(data) {
		return fmt.Sprintf("invalid UTF-8 (line %d)", invalidUTF8Line(data))
	}
	if _, err := frontmatter.Parse(data); err != nil {
		return "unreadable: " + err.Error()
	}
	return ""
}
