package mcpcmd

import (
	"context"
	"fmt"
	"sync"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// SearchMemoryArgs are search_memory's parameters (those of `memory search`).
type SearchMemoryArgs struct {
	Query  string   `json:"query" jsonschema:"the words to search for"`
	Status string   `json:"status,omitempty" jsonschema:"the folder searched: confirmed (default), inbox or trash"`
	Type   string   `json:"type,omitempty" jsonschema:"fact, concept or lesson (any when empty)"`
	Tags   []string `json:"tags,omitempty" jsonschema:"only memories with all these tags"`
	Author string   `json:"author,omitempty" jsonschema:"only memories of this author"`
	Since  string   `json:"since,omitempty" jsonschema:"only memories ingested at or after this time (RFC 3339)"`
	Limit  int      `json:"limit,omitempty" jsonschema:"at most this many results (default 20)"`
}

// CloseObservationArgs are close_observation's parameters.
type CloseObservationArgs struct {
	ID      string `json:"id" jsonschema:"the memory's id"`
	Outcome string `json:"outcome" jsonschema:"held, superseded, trashed or contradicted"`
	Note    string `json:"note,omitempty" jsonschema:"why, recorded as observation.note"`
}

// RecordUsageArgs are record_usage's parameters (those of `context used`).
type RecordUsageArgs struct {
	IDs     []string `json:"ids" jsonschema:"the bullets used in the task"`
	Helpful bool     `json:"helpful,omitempty" jsonschema:"they helped: helpful_count + 1, confidence + 0.05"`
	Harmful bool     `json:"harmful,omitempty" jsonschema:"they harmed: harmful_count + 1"`
}

// searchIndex is the server's memory search index, kept warm between
// calls from the live listing (only the memories that changed are indexed
// again). It is made at the first search.
type searchIndex struct {
	once sync.Once
	ix   *memory.SearchIndex
	err  error
}

func (s *Server) addFeedbackTools() {
	tool(s, "search_memory", "The memories (confirmed unless status says otherwise) most similar to a query, best first: "+
		"ranked by the similarity engine on their brief, then those holding every word of the query; filters type, tags, "+
		"author, since (as `curator memory search --json`).", s.searchMemory)
	tool(s, "close_observation", "Close a promoted memory's pending observation window by judgement, with an outcome "+
		"(held, superseded, trashed, contradicted) and a note (one commit). `memory observe` closes due windows by rule.",
		func(_ context.Context, a CloseObservationArgs) (Result, error) {
			return memoryCall(s, "close_observation", func(ctx context.Context, tx *mdstore.Tx, save []mdstore.SaveOption) (*memory.CloseObservationReport, error) {
				return memory.CloseObservation(ctx, tx, memory.CloseObservationRequest{ID: a.ID, Outcome: a.Outcome, Note: a.Note, Save: save})
			})
		})
	tool(s, "record_usage", "Record that playbook bullets were used in a task: usage_count + 1 and last_used_at, and "+
		"helpful or harmful when told, without a reflection (one commit, as `curator context used`).",
		func(ctx context.Context, a RecordUsageArgs) (Result, error) {
			st, saving, err := s.playbookStore(ctx, "record_usage")
			if err != nil {
				return nil, err
			}
			return playbookResult(playbook.Usage(ctx, st, playbook.UsageRequest{IDs: a.IDs, Helpful: a.Helpful, Harmful: a.Harmful, Saving: saving}))
		})
}

func (s *Server) searchMemory(ctx context.Context, a SearchMemoryArgs) (Result, error) {
	req := memory.SearchRequest{Query: a.Query, Status: a.Status, Type: a.Type, Tags: a.Tags, Author: a.Author, Limit: a.Limit}
	var err error
	if req.Since, err = optionalTime("since", a.Since); err != nil {
		return nil, err
	}
	st, err := s.env("search_memory").OpenStore()
	if err != nil {
		return nil, toolError(err)
	}
	ix, err := s.memorySearchIndex(st)
	if err != nil {
		return nil, toolError(err)
	}
	rep, err := memory.Search(ctx, st, ix, req)
	if err != nil {
		return nil, toolError(err)
	}
	return asResult("search_memory", rep)
}

// memorySearchIndex is the warm index, made at the first call: it ranks
// with the store's engine and reads the memories from the live listing
// (the store's files when there is none).
func (s *Server) memorySearchIndex(st *mdstore.Store) (*memory.SearchIndex, error) {
	s.search.once.Do(func() {
		e, err := playbook.Engine(st)
		if err != nil {
			s.search.err = fmt.Errorf("search_memory: %w", err)
			return
		}
		s.search.ix = memory.NewSearchIndex(e, func(q mdstore.MemoryQuery, since uint64) (*mdstore.MemoryList, uint64, error) {
			if live := s.pages.Live(); live != nil {
				return live.ListDelta(q, since)
			}
			res, err := cache.ListMemories(st, q)
			return res, 0, err
		})
	})
	return s.search.ix, s.search.err
}
