package memory

import (
	"context"
	"time"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// PurgeRequest asks to empty the trash of entries trashed more than
// OlderThan ago.
type PurgeRequest struct {
	OlderThan time.Duration
	// Save are the options of the store transaction's save.
	Save []mdstore.SaveOption
}

// PurgeReport is what a purge removed, its commit, and the trashed files
// that could not be read (left untouched).
type PurgeReport struct {
	Commit  string                 `json:"commit"`
	Invalid []*mdstore.InvalidFile `json:"invalid"`
	Purged  []string               `json:"purged"`
}

// PurgeTrash removes the trashed memories due for purging (PurgeDue) and
// commits it; history keeps them.
func PurgeTrash(_ context.Context, tx *mdstore.Tx, req PurgeRequest) (*PurgeReport, error) {
	if req.OlderThan < 0 {
		return nil, refuse.Requestf("older than %v: want a duration of at least 0", req.OlderThan)
	}
	s := tx.Store
	list, err := cache.ListMemories(s, mdstore.MemoryQuery{Status: "trash"})
	if err != nil {
		return nil, err
	}
	run, purged := PlanPurge(list.Memories, req.OlderThan, s.Now())
	commit, err := tx.Save(run, req.Save...)
	if err != nil {
		return nil, err
	}
	return &PurgeReport{Commit: commit, Invalid: nonNil(list.Invalid), Purged: nonNil(purged)}, nil
}
