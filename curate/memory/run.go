package memory

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// Run is a prepared memory pass: its plan, and the store run that carries
// it out (the changeset, its commit message, the files it could not read).
type Run struct {
	*mdstore.Run
	Plan *Plan
	// State is the memory state after the pass, for the cache
	// (mdstore.Store.WriteMemoryStateCache) once the pass is saved.
	State mdstore.MemoryState
	// Closed are the observation windows the run closes (CloseDue).
	Closed []Closing
}

// CloseDue adds to the pass the closing of every observation window due at
// now, as the pass leaves the confirmed and trashed memories (one commit
// with the pass).
func (r *Run) CloseDue(s *mdstore.Store, now time.Time, prefix int) error {
	closed, invalid, err := closeDue(s, now, prefix, r.Changes)
	if err != nil {
		return err
	}
	r.Closed = closed
	r.Invalid = append(r.Invalid, invalid...)
	for _, c := range closed {
		r.Commit.Decisions = append(r.Commit.Decisions, c.decision())
	}
	if len(closed) > 0 {
		r.Commit.Summary += ", " + windows(len(closed)) + " closed"
	}
	return nil
}

// PreparePass reads every inbox entry of the window (all of them, before
// acting) and every late entry, plans the pass and builds its changeset. It
// changes nothing on disk.
//
// A late entry is an inbox entry whose ingestion_time is older than the
// watermark and that no pass has looked at yet (written late, or with a
// back-dated time). The pass from the watermark (w.FromWatermark) that
// finds it curates it together with the window's entries, as if its
// ingestion_time fell in the window; a pass over an explicit window
// curates that window only.
//
// The watermark is written into memory/state.json only when the pass
// changes entries (one commit); State is the state to keep in the cache
// after the pass, so an empty hour needs no commit.
func PreparePass(s *mdstore.Store, w Window, opt Options, run string, now time.Time) (*Run, error) {
	list, err := cache.ListMemories(s, mdstore.MemoryQuery{Status: "inbox", From: w.From, To: w.To, Light: true, Progress: opt.Progress, DeferIndex: true, Secrets: s.Secrets()})
	if err != nil {
		return nil, err
	}
	st, err := s.ReadMemoryState()
	if err != nil {
		return nil, err
	}
	candidates := list.Memories
	invalid := list.Invalid
	var stillSeen []string
	if !st.Watermark.IsZero() {
		ids, err := s.InboxIDs()
		if err != nil {
			return nil, err
		}
		known := make(map[string]bool, len(st.Seen)+len(list.Memories))
		for _, id := range st.Seen {
			known[id] = true
		}
		for _, id := range ids {
			if known[id] {
				stillSeen = append(stillSeen, id)
			}
		}
		if w.FromWatermark {
			more, bad := lateEntries(s, w, st.Watermark, ids, known, list)
			candidates = append(candidates, more...)
			for _, inv := range bad {
				if !containsInvalid(invalid, inv.Path) {
					invalid = append(invalid, inv)
				}
			}
		}
	}
	plan := PlanPass(w, candidates, opt)
	w = plan.Window
	byID := make(map[string]*mdstore.Memory, len(candidates))
	for _, m := range candidates {
		byID[m.ID] = m
	}
	cs := &mdstore.Changeset{}
	skipped, err := Apply(plan, byID, s, run, now, cs)
	if err != nil {
		return nil, err
	}
	next := MemoryStateAfter(st, w, plan, stillSeen, candidates, run)
	if !cs.Empty() && next.Watermark.After(committedWatermark(s)) {
		cs.Write(mdstore.MemoryStatePath, next.Bytes())
	}
	summary := fmt.Sprintf("memory curate %s: %d promoted, %d duplicates, %d discarded, %d kept", w, len(plan.Promoted), len(plan.Duplicates), len(plan.Discarded), len(plan.Kept))
	if n := len(plan.LeftForReflection); n > 0 {
		summary += fmt.Sprintf(", %d left for reflection", n)
	}
	if n := len(plan.Late); n > 0 {
		summary += fmt.Sprintf(", %d late", n)
	}
	return &Run{Plan: plan, State: next, Run: &mdstore.Run{Invalid: append(invalid, skipped...), Changes: cs, Commit: mdstore.CommitInfo{
		Summary:   summary,
		Decisions: plan.Decisions(),
		RunID:     run,
		At:        now,
	}}}, nil
}

// lateEntries reads the inbox entries (ids) that are neither in the window's
// list nor known (seen by an earlier pass): found by file name, so only
// those are read. It returns those older than the watermark and the files
// it could not read.
func lateEntries(s *mdstore.Store, w Window, watermark time.Time, ids []string, known map[string]bool, list *mdstore.MemoryList) ([]*mdstore.Memory, []*mdstore.InvalidFile) {
	for _, m := range list.Memories {
		known[m.ID] = true
	}
	for _, inv := range list.Invalid {
		known[strings.TrimSuffix(path.Base(inv.Path), ".md")] = true
	}
	var unknown []string
	for _, id := range ids {
		if !known[id] {
			unknown = append(unknown, id)
		}
	}
	more, bad := s.ReadInbox(unknown, s.Secrets())
	var late []*mdstore.Memory
	for _, m := range more {
		if m.IngestionTime.Before(watermark) && !w.Contains(m.IngestionTime) {
			late = append(late, m)
		}
	}
	return late, bad
}

// MemoryStateAfter is the state after a pass: the later of the two
// watermarks, and as seen the inbox entries older than it that stay in the
// inbox: stillSeen (seen by earlier passes and still there) and the
// candidates the plan leaves in the inbox.
func MemoryStateAfter(st mdstore.MemoryState, w Window, p *Plan, stillSeen []string, candidates []*mdstore.Memory, run string) mdstore.MemoryState {
	next := mdstore.MemoryState{Watermark: st.Watermark, LastRun: run}
	if w.To.After(next.Watermark) {
		next.Watermark = w.To
	}
	moved := map[string]bool{}
	for _, g := range [][]Action{p.Duplicates, p.Promoted, p.Discarded} {
		for _, a := range g {
			moved[a.ID] = true
		}
	}
	ids := map[string]bool{}
	for _, id := range stillSeen {
		if !moved[id] {
			ids[id] = true
		}
	}
	for _, m := range candidates {
		if !moved[m.ID] && m.IngestionTime.Before(next.Watermark) {
			ids[m.ID] = true
		}
	}
	for id := range ids {
		next.Seen = append(next.Seen, id)
	}
	sort.Strings(next.Seen)
	return next
}

// committedWatermark is the watermark of memory/state.json as it is on
// disk (zero when missing or unreadable).
func committedWatermark(s *mdstore.Store) time.Time {
	data, err := os.ReadFile(s.Path(mdstore.MemoryStatePath))
	if err != nil {
		return time.Time{}
	}
	var st mdstore.MemoryState
	if json.Unmarshal(data, &st) != nil {
		return time.Time{}
	}
	return st.Watermark
}

func containsInvalid(list []*mdstore.InvalidFile, path string) bool {
	for _, f := range list {
		if f.Path == path {
			return true
		}
	}
	return false
}

// Decisions are the plan's lines for the commit message and the report.
func (p *Plan) Decisions() []string {
	var out []string
	for _, a := range p.Duplicates {
		out = append(out, fmt.Sprintf("trash %s: duplicate of %s", a.ID, a.DuplicateOf))
	}
	for _, a := range p.Promoted {
		out = append(out, fmt.Sprintf("promote %s to confirmed/%s (channel %s, score %.4g)", a.ID, a.Type, a.Channel, a.Score))
	}
	for _, a := range p.Discarded {
		out = append(out, fmt.Sprintf("trash %s: score %.4g < %.2g", a.ID, a.Score, TrashScore))
	}
	for _, a := range p.LeftForReflection {
		out = append(out, fmt.Sprintf("keep %s for reflection: same dedup key as %s (other authors)", a.ID, strings.Join(a.SharesKeyWith, ", ")))
	}
	return out
}
