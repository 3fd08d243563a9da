package playbook

import (
	"context"
	"strings"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// Check refuses a negative limit.
func (q QueryRequest) Check() error {
	if q.Limit < 0 {
		return paramErrorf("limit", "want at least 1, not %d", q.Limit)
	}
	return nil
}

// tagsOf are the tags asked for, each trimmed, the empty ones left out.
func tagsOf(tags []string) []string {
	var out []string
	for _, t := range tags {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// Query lists the active bullets that match, best first. An engine that
// fails while it ranks stops it; an engine that fell back to the lexical
// one is a note.
func Query(_ context.Context, s *mdstore.Store, q QueryRequest) (*QueryReport, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	q.Category = categoryFilter(q.Category)
	q.Tags = tagsOf(q.Tags)
	pb, e, invalid, err := Read(s, q.Text != "", s.Now())
	if err != nil {
		return nil, err
	}
	defer s.WriteCaches()
	if e == nil {
		if e, err = Engine(s); err != nil {
			return nil, err
		}
	}
	return answer(pb, e, invalid, q)
}

// answer is the report of q over a playbook read and its engine.
func answer(pb *Playbook, e similar.Engine, invalid []*mdstore.InvalidFile, q QueryRequest) (*QueryReport, error) {
	res := Search(pb, e.Score, q)
	if err := pb.Err(); err != nil {
		return nil, err
	}
	if err := CheckEngine(e); err != nil {
		return nil, err
	}
	rep := &QueryReport{Bullets: orEmpty(res), Invalid: orEmpty(invalid)}
	if note := EngineNote(e); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	return rep, nil
}
