package memory

import (
	"context"
	"errors"
	"time"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// DeleteRequest asks to move a memory to the trash.
type DeleteRequest struct {
	ID string `json:"id" jsonschema:"the memory's id"`
	// Reason is recorded as trashed.reason ("" is "deleted").
	Reason string `json:"reason,omitempty" jsonschema:"why, recorded as trashed.reason (default: deleted)"`
	// Save are the options of the store transaction's save.
	Save []mdstore.SaveOption `json:"-"`
}

// RestoreRequest asks to move a trashed memory back where it was.
type RestoreRequest struct {
	ID string `json:"id" jsonschema:"the memory's id"`
	// Save are the options of the store transaction's save.
	Save []mdstore.SaveOption `json:"-"`
}

// Delete moves the memory to the trash (one commit). A memory whose file
// cannot be read is removed as it is (git history keeps it): the report
// says why in Unreadable.
func Delete(_ context.Context, tx *mdstore.Tx, req DeleteRequest) (*Moved, error) {
	rep, err := move(tx, req.ID, req.Save, func(m *mdstore.Memory, now time.Time) (*Edit, error) {
		return PlanDelete(m, req.Reason, now)
	})
	var bad *mdstore.InvalidFile
	if !errors.As(err, &bad) {
		return rep, err
	}
	path, err := tx.Store.MemoryPath(req.ID)
	if err != nil {
		return nil, err
	}
	e := PlanRemoveUnreadable(req.ID, path, bad.Msg, tx.Store.Now())
	commit, err := tx.Save(e.Run, req.Save...)
	if err != nil {
		return nil, err
	}
	return &Moved{Commit: commit, ID: e.ID, From: path, Unreadable: bad.Msg}, nil
}

// Restore moves the memory from the trash back to the folder it was
// trashed from (one commit).
func Restore(_ context.Context, tx *mdstore.Tx, req RestoreRequest) (*Moved, error) {
	return move(tx, req.ID, req.Save, PlanRestore)
}

// move finds the memory, plans its move and saves it. A memory whose
// state does not allow the move is a wrong request; a file in the way
// blocks it.
func move(tx *mdstore.Tx, id string, save []mdstore.SaveOption, edit func(*mdstore.Memory, time.Time) (*Edit, error)) (*Moved, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	s := tx.Store
	m, err := s.FindMemory(id)
	if err != nil {
		return nil, err
	}
	e, err := edit(m, s.Now())
	switch {
	case errors.Is(err, ErrInTrash), errors.Is(err, ErrNotInTrash):
		return nil, refuse.Request(err)
	case err != nil:
		return nil, err
	}
	if err := e.Occupied(s.Exists); err != nil {
		return nil, refuse.Blocked(err)
	}
	commit, err := tx.Save(e.Run, save...)
	if err != nil {
		return nil, err
	}
	return &Moved{Commit: commit, ID: e.ID, Path: e.To, From: e.From}, nil
}
