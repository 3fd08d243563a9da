package mcpcmd

import (
	"context"
	"time"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/mdstore"
)

// ListEntriesArgs are list_entries' parameters, as the memory-curate
// procedure passes them.
type ListEntriesArgs struct {
	Status             string `json:"status" jsonschema:"inbox, confirmed or trash"`
	Type               string `json:"type,omitempty" jsonschema:"fact, concept or lesson (any when empty)"`
	IngestionTimeStart string `json:"ingestion_time_start,omitempty" jsonschema:"window start, RFC 3339, inclusive (open when empty)"`
	IngestionTimeEnd   string `json:"ingestion_time_end,omitempty" jsonschema:"window end, RFC 3339, exclusive (open when empty)"`
	Limit              int    `json:"limit,omitempty" jsonschema:"entries per page: default 100, at most 1000"`
	Offset             int    `json:"offset,omitempty" jsonschema:"entries to skip"`
	IncludeBody        bool   `json:"include_body,omitempty" jsonschema:"also return each entry's body (off by default: the procedure reads fields only)"`
	Snapshot           string `json:"snapshot,omitempty" jsonschema:"the snapshot of an earlier page; the listing at offset 0 makes a new one"`
}

// UpdateArgs are update_long_term's parameters.
type UpdateArgs struct {
	ID    string         `json:"id" jsonschema:"the memory's id"`
	Patch map[string]any `json:"patch" jsonschema:"fields to set: dotted keys (importance_factors.proximity) or nested maps; maturity: confirmed on an inbox entry promotes it to confirmed/<type>/"`
}

// AddArgs are add_memory's parameters.
type AddArgs struct {
	ID                string             `json:"id,omitempty" jsonschema:"the id (default: m- and a run id)"`
	Type              string             `json:"type" jsonschema:"fact, concept or lesson"`
	Brief             string             `json:"brief" jsonschema:"one line"`
	Body              string             `json:"body,omitempty"`
	Author            string             `json:"author,omitempty"`
	Tags              []string           `json:"tags,omitempty"`
	ContentConfidence int                `json:"content_confidence,omitempty" jsonschema:"1 to 5 (default 3)"`
	ImportanceFactors map[string]float64 `json:"importance_factors,omitempty" jsonschema:"proximity, surprisal, entity_priority, unambiguity: each in [0,1]"`
	Scenario          string             `json:"scenario,omitempty" jsonschema:"for lessons: the scenario rules are drawn for"`
	IngestionTime     string             `json:"ingestion_time,omitempty" jsonschema:"RFC 3339 (default: now)"`
}

// CurateArgs are curate_memory's parameters.
type CurateArgs struct {
	IngestionTimeStart string `json:"ingestion_time_start,omitempty" jsonschema:"window start (default: the watermark)"`
	IngestionTimeEnd   string `json:"ingestion_time_end,omitempty" jsonschema:"window end (default: now)"`
	Task               string `json:"task,omitempty" jsonschema:"a task text holding 整理范围：<start> 到 <end>"`
	DryRun             bool   `json:"dry_run,omitempty" jsonschema:"report the decisions and change nothing"`
}

func (s *Server) addMemoryTools() {
	tool(s, "list_entries", "The memory entries of a status whose ingestion_time is in [ingestion_time_start, ingestion_time_end), "+
		"ordered by (ingestion_time, id): their frontmatter fields without bodies, a page of at most limit from offset, and the total. "+
		"Pages of one listing come from one snapshot (taken at offset 0), so entries moved meanwhile are neither skipped nor repeated.",
		s.listEntries)
	tool(s, "get_memory", "One memory entry with its body.", func(_ context.Context, req memory.ShowRequest) (Result, error) {
		return memoryRead(s, "get_memory", func(ctx context.Context, st *mdstore.Store) (*memory.ShowReport, error) {
			return memory.Show(ctx, st, req)
		})
	})
	tool(s, "add_memory", "A new inbox entry (one commit). Refused if it holds a secret.", s.addMemory)
	tool(s, "update_long_term", "Set fields of a memory (one commit). maturity: confirmed on an inbox entry moves it to confirmed/<type>/ "+
		"with status confirmed, in the same commit. maturity: rule is refused: rules are drawn by promote_to_rule from at least 3 cases. "+
		"The result is checked again; an invalid patch changes nothing.", s.updateLongTerm)
	tool(s, "delete_memory", "Move a memory to the trash with trashed.reason set (one commit; restore_memory undoes it).",
		func(_ context.Context, req memory.DeleteRequest) (Result, error) {
			return memoryCall(s, "delete_memory", func(ctx context.Context, tx *mdstore.Tx, save []mdstore.SaveOption) (*memory.Moved, error) {
				req.Save = save
				return memory.Delete(ctx, tx, req)
			})
		})
	tool(s, "restore_memory", "Move a trashed memory back where it was (one commit).", func(_ context.Context, req memory.RestoreRequest) (Result, error) {
		return memoryCall(s, "restore_memory", func(ctx context.Context, tx *mdstore.Tx, save []mdstore.SaveOption) (*memory.Moved, error) {
			req.Save = save
			return memory.Restore(ctx, tx, req)
		})
	})
	tool(s, "promote_to_rule", "Draw a rule from at least 3 distinct lesson cases of one scenario into confirmed/lesson/ (one commit).",
		func(_ context.Context, req memory.PromoteRuleRequest) (Result, error) {
			return memoryCall(s, "promote_to_rule", func(ctx context.Context, tx *mdstore.Tx, save []mdstore.SaveOption) (*memory.PromoteRuleReport, error) {
				req.Save = save
				return memory.PromoteRule(ctx, tx, req)
			})
		})
	tool(s, "curate_memory", "The hourly memory pass over a window (default: from the watermark to now): dedup, score, promote or trash; "+
		"its report. One commit unless dry_run.", s.curateMemory)
}

// listEntries pages through one snapshot of a window's entries.
func (s *Server) listEntries(_ context.Context, a ListEntriesArgs) (Result, error) {
	q := mdstore.MemoryQuery{Status: a.Status, Type: a.Type, Light: true}
	var err error
	if q.From, err = optionalTime("ingestion_time_start", a.IngestionTimeStart); err != nil {
		return nil, err
	}
	if q.To, err = optionalTime("ingestion_time_end", a.IngestionTimeEnd); err != nil {
		return nil, err
	}
	pg, err := s.pages.Page(memory.PageRequest{Query: q, Offset: a.Offset, Limit: a.Limit, Snapshot: a.Snapshot, IncludeBody: a.IncludeBody})
	if err != nil {
		return nil, toolError(err)
	}
	return asResult("list_entries", pg)
}

func (s *Server) addMemory(_ context.Context, a AddArgs) (Result, error) {
	rec := mdstore.NewMemory{ID: a.ID, Type: a.Type, Brief: a.Brief, Author: a.Author, Tags: a.Tags, Confidence: a.ContentConfidence,
		Factors: a.ImportanceFactors, Scenario: a.Scenario, Body: a.Body}
	var err error
	if rec.IngestionTime, err = optionalTime("ingestion_time", a.IngestionTime); err != nil {
		return nil, err
	}
	return memoryCall(s, "add_memory", func(ctx context.Context, tx *mdstore.Tx, save []mdstore.SaveOption) (*memory.Moved, error) {
		return memory.Add(ctx, tx, memory.AddRequest{Record: rec, Save: save})
	})
}

func (s *Server) updateLongTerm(_ context.Context, a UpdateArgs) (Result, error) {
	sets, err := memory.PatchSets(a.Patch)
	if err != nil {
		return nil, toolError(err)
	}
	return memoryCall(s, "update_long_term", func(ctx context.Context, tx *mdstore.Tx, save []mdstore.SaveOption) (*memory.UpdateReport, error) {
		return memory.Update(ctx, tx, memory.UpdateRequest{ID: a.ID, Sets: sets, Save: save})
	})
}

func (s *Server) curateMemory(_ context.Context, a CurateArgs) (Result, error) {
	req := memory.CurateRequest{Task: a.Task, DryRun: a.DryRun}
	var err error
	if req.From, err = optionalTime("ingestion_time_start", a.IngestionTimeStart); err != nil {
		return nil, err
	}
	if req.To, err = optionalTime("ingestion_time_end", a.IngestionTimeEnd); err != nil {
		return nil, err
	}
	return memoryCall(s, "curate_memory", func(ctx context.Context, tx *mdstore.Tx, save []mdstore.SaveOption) (*memory.CurateReport, error) {
		req.Save = save
		return memory.Curate(ctx, tx, req)
	})
}

// optionalTime reads a time argument as the memory requests read times
// (memory.ParseOptionalTime); a bad one is a tool error naming it.
func optionalTime(name, v string) (time.Time, error) {
	t, err := memory.ParseOptionalTime(name, v)
	return t, toolError(err)
}
