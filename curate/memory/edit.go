package memory

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// Errors of the one-memory edits. The caller asked for something the
// memory's state does not allow (*FixedKeyError, ErrInTrash,
// ErrNotInTrash), the edit would make an invalid record (ErrInvalidEdit),
// or a file is already where the memory would move (ErrOccupied).
var (
	ErrInTrash     = errors.New("already in the trash")
	ErrNotInTrash  = errors.New("not in the trash")
	ErrInvalidEdit = errors.New("the update would make an invalid memory")
	ErrOccupied    = errors.New("a file is already there")
)

// FixedKeyError is an update of a key that follows the file (id, status).
type FixedKeyError struct{ Key string }

func (e *FixedKeyError) Error() string {
	return e.Key + " follows the file; use delete/restore or maturity=confirmed (status may only be set to what that makes it)"
}

// Set is one change of `memory update`: Key is a top-level key, or
// "key.sub" for one entry of a map; Value is the decoded YAML value.
type Set struct {
	Key   string
	Value any
}

// Edit is the change of one memory: where its file was, where it is
// afterwards, and the run that records it.
type Edit struct {
	ID   string
	From string
	To   string
	// Changed are the keys an update set, in the order given.
	Changed []string
	// Memory is the record as it will be written (checked like a file).
	Memory *mdstore.Memory
	Run    *mdstore.Run
}

// Occupied is an error wrapping ErrOccupied when the edit moves the file
// and exists says a file is already at its destination.
func (e *Edit) Occupied(exists func(rel string) bool) error {
	if e.To != e.From && exists(e.To) {
		return fmt.Errorf("cannot move %s to %s: %w", e.From, e.To, ErrOccupied)
	}
	return nil
}

// Add is the run that writes a new memory record (from mdstore.NewMemoryRecord).
func Add(m *mdstore.Memory, now time.Time) *Edit {
	run := mdstore.NewRun("memory add "+m.ID, now)
	run.Decide("add " + m.ID + ": " + m.Brief)
	run.Changes.Write(m.Path, m.Doc.Bytes())
	return &Edit{ID: m.ID, From: m.Path, To: m.Path, Memory: m, Run: run}
}

// Update sets keys of a memory and says where its file goes: setting
// maturity to confirmed on an inbox entry promotes it (to confirmed/<type>/,
// with its observation period started), changing the type of a confirmed
// memory moves it to the folder of the new type; any other update rewrites
// the file in place. id cannot be set, nor status to anything but what the
// edit makes it (*FixedKeyError). The edited
// record gets every check a file gets (ErrInvalidEdit). m's document is
// edited.
func Update(m *mdstore.Memory, sets []Set, now time.Time) (*Edit, error) {
	var changed []string
	var statuses []any
	for _, s := range sets {
		if s.Key == "status" {
			statuses = append(statuses, s.Value)
			continue
		}
		if s.Key == "id" {
			return nil, &FixedKeyError{Key: s.Key}
		}
		if err := setPath(m, s.Key, s.Value); err != nil {
			return nil, err
		}
		changed = append(changed, s.Key)
	}
	checked, err := mdstore.ParseMemory(m.Path, m.Doc.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidEdit, err)
	}
	// status follows the folder: it may be set only to what the edit makes
	// it (status: confirmed beside maturity: confirmed, as the memory-curate
	// procedure patches a promotion).
	becomes := checked.Status
	if checked.Status == "inbox" && checked.Maturity == "confirmed" {
		becomes = "confirmed"
	}
	for _, v := range statuses {
		if v != becomes {
			return nil, &FixedKeyError{Key: "status"}
		}
	}
	run := mdstore.NewRun("memory update "+m.ID, now)
	run.Decide("update " + m.ID + ": " + strings.Join(changed, ", "))
	e := &Edit{ID: m.ID, From: m.Path, To: m.Path, Changed: changed, Memory: checked, Run: run}
	switch {
	case checked.Status == "inbox" && checked.Maturity == "confirmed":
		if err := Promote(checked, now, run.Changes); err != nil {
			return nil, err
		}
		e.To = mdstore.MemoryPath("confirmed", checked.Type, checked.ID)
	case checked.Status == "confirmed" && checked.Type != m.Type:
		// confirmed/<type>/ follows the type
		e.To = mdstore.MemoryPath("confirmed", checked.Type, checked.ID)
		run.Changes.Move(m.Path, e.To, checked.Doc.Bytes())
	default:
		run.Changes.Write(m.Path, checked.Doc.Bytes())
	}
	return e, nil
}

// setPath sets key (or key.sub for one entry of a map) to v.
func setPath(m *mdstore.Memory, key string, v any) error {
	top, sub, nested := strings.Cut(key, ".")
	if !nested {
		return m.Doc.Set(key, v)
	}
	var all map[string]any
	if err := m.Doc.Decode(&all); err != nil {
		return err
	}
	inner, _ := all[top].(map[string]any)
	if inner == nil {
		inner = map[string]any{}
	}
	inner[sub] = v
	return m.Doc.Set(top, inner)
}

// Delete moves a memory to the trash, recording why (reason, "deleted" when
// empty), by which run, and the folder to restore it to.
func Delete(m *mdstore.Memory, reason string, now time.Time) (*Edit, error) {
	if m.Status == "trash" {
		return nil, fmt.Errorf("memory %s is %w", m.ID, ErrInTrash)
	}
	if reason == "" {
		reason = "deleted"
	}
	run := mdstore.NewRun("memory delete "+m.ID, now)
	if err := Trash(m, Trashed{Reason: reason, Run: run.Commit.RunID}, now, run.Changes); err != nil {
		return nil, err
	}
	return moved("delete", m, mdstore.MemoryPath("trash", m.Type, m.ID), run), nil
}

// Undelete puts a trashed memory back in the folder it was trashed from.
func Undelete(m *mdstore.Memory, now time.Time) (*Edit, error) {
	run := mdstore.NewRun("memory restore "+m.ID, now)
	dst, err := Restore(m, run.Changes)
	if err != nil {
		return nil, err
	}
	return moved("restore", m, dst, run), nil
}

func moved(verb string, m *mdstore.Memory, dst string, run *mdstore.Run) *Edit {
	run.Decide(verb + " " + m.ID + ": " + m.Path + " → " + dst)
	return &Edit{ID: m.ID, From: m.Path, To: dst, Memory: m, Run: run}
}
