package memory

import (
	"context"
	"slices"
	"strings"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// ListRequest selects memories: Query's status, type, window and page
// (a Limit of 0 is every entry).
type ListRequest struct {
	Query mdstore.MemoryQuery
}

// ListReport is a page of memories ordered by (ingestion_time, id), the
// number the query matched, and the files that could not be read.
type ListReport struct {
	Entries []Entry                `json:"entries"`
	Invalid []*mdstore.InvalidFile `json:"invalid"`
	Limit   int                    `json:"limit"`
	Offset  int                    `json:"offset"`
	Total   int                    `json:"total"`
	// Memories are the records of Entries, in the same order.
	Memories []*mdstore.Memory `json:"-"`
}

// Check refuses an unknown status or type and a negative page.
func (r ListRequest) Check() error {
	q := r.Query
	if q.Status != "" && !slices.Contains(mdstore.MemoryStatuses, q.Status) {
		return refuse.Requestf("status %q: want one of %s", q.Status, strings.Join(mdstore.MemoryStatuses, ", "))
	}
	if q.Type != "" && !slices.Contains(mdstore.MemoryTypes, q.Type) {
		hint := ""
		if q.Type == "rule" {
			hint = " (rule is a maturity: rules are lessons, list type lesson)"
		}
		return refuse.Requestf("type %q: want one of %s%s", q.Type, strings.Join(mdstore.MemoryTypes, ", "), hint)
	}
	if q.Limit < 0 || q.Offset < 0 {
		return refuse.Requestf("limit %d, offset %d: neither may be negative", q.Limit, q.Offset)
	}
	return nil
}

// List reads the memories the query selects. Files that cannot be read
// are named in the report and skipped.
func List(_ context.Context, s *mdstore.Store, req ListRequest) (*ListReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	res, err := cache.ListMemories(s, req.Query)
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, 0, len(res.Memories))
	for _, m := range res.Memories {
		entries = append(entries, NewEntry(m))
	}
	return &ListReport{Entries: entries, Invalid: nonNil(res.Invalid), Limit: req.Query.Limit, Offset: req.Query.Offset,
		Total: res.Total, Memories: res.Memories}, nil
}

// ShowRequest names the memory to read.
type ShowRequest struct {
	ID string `json:"id" jsonschema:"the memory's id"`
}

// ShowReport is one memory: its entry, and its file as it is.
type ShowReport struct {
	Entry
	// File is the memory's file, byte for byte.
	File []byte `json:"-"`
}

// Show reads one memory.
func Show(_ context.Context, s *mdstore.Store, req ShowRequest) (*ShowReport, error) {
	if err := checkID(req.ID); err != nil {
		return nil, err
	}
	m, err := s.FindMemory(req.ID)
	if err != nil {
		return nil, err
	}
	return &ShowReport{Entry: NewEntry(m), File: m.Doc.Bytes()}, nil
}
