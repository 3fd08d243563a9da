package memory

import (
	"fmt"
	"strings"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// Run is a prepared memory pass: its plan, and the store run that carries
// it out (the changeset, its commit message, the files it could not read).
type Run struct {
	*mdstore.Run
	Plan *Plan
}

// PreparePass reads every inbox entry of the window (all of them, before
// acting), plans the pass and builds its changeset, including the watermark.
// It changes nothing on disk.
func PreparePass(s *mdstore.Store, w Window, opt Options, run string, now time.Time) (*Run, error) {
	list, err := s.ListMemories(mdstore.MemoryQuery{Status: "inbox", From: w.From, To: w.To, Light: true, Progress: opt.Progress, DeferIndex: true, Secrets: s.Secrets()})
	if err != nil {
		return nil, err
	}
	plan := PlanPass(w, list.Memories, opt)
	byID := make(map[string]*mdstore.Memory, len(list.Memories))
	for _, m := range list.Memories {
		byID[m.ID] = m
	}
	cs := &mdstore.Changeset{}
	skipped, err := Apply(plan, byID, s, run, now, cs)
	if err != nil {
		return nil, err
	}
	st, err := s.ReadMemoryState()
	if err != nil {
		return nil, err
	}
	if w.To.After(st.Watermark) {
		cs.Write(mdstore.MemoryStatePath, mdstore.MemoryState{Watermark: w.To, LastRun: run}.Bytes())
	}
	summary := fmt.Sprintf("memory curate %s: %d promoted, %d duplicates, %d discarded, %d kept", w, len(plan.Promoted), len(plan.Duplicates), len(plan.Discarded), len(plan.Kept))
	if n := len(plan.LeftForReflection); n > 0 {
		summary += fmt.Sprintf(", %d left for reflection", n)
	}
	return &Run{Plan: plan, Run: &mdstore.Run{Invalid: append(list.Invalid, skipped...), Changes: cs, Commit: mdstore.CommitInfo{
		Summary:   summary,
		Decisions: plan.Decisions(),
		RunID:     run,
		At:        now,
	}}}, nil
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
