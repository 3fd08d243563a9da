package store

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// Run is what a command that changes the store produces: the files it
// changes, the commit message that records them, and the inputs it could
// not read (named, left untouched). Every mutating command returns one and
// hands it to Tx.Save.
type Run struct {
	Changes *Changeset
	Commit  CommitInfo
	Invalid []*InvalidFile
}

// NewRun starts an empty run with a fresh id at the given time.
func NewRun(summary string, at time.Time) *Run {
	return &Run{Changes: &Changeset{}, Commit: CommitInfo{Summary: summary, RunID: NewRunID(at), At: at}}
}

// Decide adds decision lines to the run's commit message.
func (r *Run) Decide(lines ...string) { r.Commit.Decisions = append(r.Commit.Decisions, lines...) }

// NewRunID is a sortable, unique run id: UTC time plus random bits.
func NewRunID(at time.Time) string {
	b := make([]byte, 3)
	rand.Read(b)
	return at.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b)
}

// InvalidFile is a record that could not be read. It is reported and left
// exactly as it is.
type InvalidFile struct {
	Path string `json:"path"` // store-relative
	Line int    `json:"line,omitempty"`
	Msg  string `json:"error"`
}

func (e *InvalidFile) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}
