package merge

import (
	"bytes"
	"path"
	"strings"
)

// Result is the merged file. Data is always a valid file of its kind (nil
// when the merge deletes the file); Conflicts lists what a reviewer must
// settle.
type Result struct {
	Data      []byte
	Conflicts []Conflict
}

// Conflict is one key (Key "" for the body or the whole file) whose two sides
// could not be joined, or a decision the merge took for a whole file. Kind
// says which, and where theirs went. Ours is the value kept, Theirs the one
// set aside (a word in parentheses for a whole file: never its content);
// Line is where the kept value sits in Data (0 when unknown).
type Conflict struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Key    string `json:"key"`
	Ours   string `json:"ours"`
	Theirs string `json:"theirs"`
	Line   int    `json:"line"`
}

// The kinds of Conflict.
const (
	// ValueConflict: one key got two new values; ours is kept, theirs is
	// recorded under merge_conflicts in the file.
	ValueConflict = "value"
	// LinesConflict: lines of a body or text file changed two ways; both
	// are kept between conflict markers.
	LinesConflict = "lines"
	// AddedConflict: both sides created the file with different content;
	// ours is kept, theirs stays only in its commit.
	AddedConflict = "added"
	// WholeConflict: both sides changed a file that merges only whole (a
	// JSON file whose top level is not an object); ours is kept, theirs
	// stays only in its commit.
	WholeConflict = "whole"
	// FolderConflict: a record moved to two folders of the same rank; it
	// stays in ours' folder.
	FolderConflict = "folder"
	// DuplicateConflict: a second copy of a record at a path already
	// taken; the first is kept.
	DuplicateConflict = "duplicate"
	// DeletedKept: deleted on one side and changed on the other; kept with
	// the change (a decision, not a conflict).
	DeletedKept = "deleted"
	// MovedKept: deleted on one side and moved on the other; kept where it
	// was moved (a decision, not a conflict).
	MovedKept = "moved"
)

// Decision reports whether the conflict is a rule's decision (a deletion
// that lost to a change) rather than two values a reviewer must settle.
func (c Conflict) Decision() bool { return c.Kind == DeletedKept || c.Kind == MovedKept }

// File merges three versions of one store file (base may be nil: both sides
// added it; ours or theirs nil: that side deleted it).
func File(path string, base, ours, theirs []byte) (Result, error) {
	m := kindOf(path)
	rd := &reads{}
	if err := checkSides(path, m, rd, base, ours, theirs); err != nil {
		return Result{}, err
	}
	if err := checkRecords(path, rd, base, ours, theirs); err != nil {
		return Result{}, err
	}
	if err := checkIdentity(path, rd, base, ours, theirs); err != nil {
		return Result{}, err
	}
	// A change of line ends alone is no change: base and theirs take the
	// line ends of ours (of theirs when ours deleted the file).
	ref := ours
	if ref == nil {
		ref = theirs
	}
	crlf := usesCRLF(ref)
	base, ours, theirs = withLineEnds(base, crlf), withLineEnds(ours, crlf), withLineEnds(theirs, crlf)
	switch {
	case bytes.Equal(ours, theirs) && (ours == nil) == (theirs == nil) && !sameChange(m, base, ours):
		return Result{Data: ours}, nil
	case base != nil && bytes.Equal(base, theirs) && theirs != nil:
		return Result{Data: ours}, nil
	case base != nil && bytes.Equal(base, ours) && ours != nil:
		return Result{Data: theirs}, nil
	case base == nil && ours != nil && theirs != nil && m.fresh != nil:
		return m.merge(path, m.fresh, ours, theirs)
	case base == nil && ours != nil && theirs != nil:
		return Result{Data: ours, Conflicts: []Conflict{{Path: path, Kind: AddedConflict, Ours: "(created)", Theirs: "(created differently)", Line: 1}}}, nil
	case ours == nil || theirs == nil:
		return deleted(path, base, ours, theirs), nil
	}
	return m.merge(path, base, ours, theirs)
}

// deleted settles a file deleted on one side: gone when the other side left
// it as it was, otherwise the changed side is kept and the deletion reported.
func deleted(path string, base, ours, theirs []byte) Result {
	if base == nil {
		if ours == nil {
			return Result{Data: theirs}
		}
		return Result{Data: ours}
	}
	if ours == nil && (theirs == nil || bytes.Equal(base, theirs)) {
		return Result{}
	}
	if theirs == nil && bytes.Equal(base, ours) {
		return Result{}
	}
	if ours == nil {
		return Result{Data: theirs, Conflicts: []Conflict{{Path: path, Kind: DeletedKept, Ours: "(deleted)", Theirs: "(edited, kept)", Line: 1}}}
	}
	return Result{Data: ours, Conflicts: []Conflict{{Path: path, Kind: DeletedKept, Ours: "(edited, kept)", Theirs: "(deleted)", Line: 1}}}
}

// kind is how one sort of store file is checked and merged.
type kind struct {
	check func(rd *reads, data []byte) error
	merge func(path string, base, ours, theirs []byte) (Result, error)
	// fresh is the base of a file both sides created (nil: a conflict).
	fresh []byte
	// record: the same change made on both sides is merged key by key
	// (two equal increments are two increments).
	record bool
}

// kindOf chooses the merge for a store-relative path.
func kindOf(p string) kind {
	name := path.Base(p)
	switch {
	case strings.HasSuffix(name, ".md"):
		return kind{checkRecord, mergeRecord, nil, true}
	case p == "memory/state.json" || strings.HasSuffix(p, "/memory/state.json"):
		return kind{checkJSON, mergeMemoryState, []byte("{}"), false}
	case strings.HasPrefix(name, "pipeline-state-") && strings.HasSuffix(name, ".json"):
		return kind{checkJSON, mergePipelineState, []byte("{}"), false}
	case strings.HasSuffix(name, ".json"):
		return kind{checkJSON, mergePlainJSON, nil, false}
	}
	return kind{func(*reads, []byte) error { return nil }, mergeText, nil, false}
}

// checkSides parses every present side so that a broken one is reported by
// name before anything is merged.
func checkSides(path string, m kind, rd *reads, base, ours, theirs []byte) error {
	for _, s := range []struct {
		name string
		data []byte
	}{{"base", base}, {"ours", ours}, {"theirs", theirs}} {
		if s.data == nil {
			continue
		}
		if err := m.check(rd, s.data); err != nil {
			return &SideError{Path: path, Side: s.name, Err: err}
		}
	}
	return nil
}

// sameChange reports whether both sides made one and the same change to a
// record, which is merged key by key rather than taken once: two agents
// that each reinforced a bullet made two increments.
func sameChange(m kind, base, ours []byte) bool {
	return m.record && base != nil && ours != nil && !bytes.Equal(base, ours)
}
