package memory

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// Outcomes of an observation window (observation.outcome).
const (
	// OutcomePending: the window is open.
	OutcomePending = mdstore.ObservationPending
	// OutcomeHeld: the window closed and the memory was neither
	// superseded nor trashed.
	OutcomeHeld = "held"
	// OutcomeSuperseded: a newer confirmed memory has the same dedup key.
	OutcomeSuperseded = "superseded"
	// OutcomeTrashed: the memory was moved to the trash before its window
	// closed.
	OutcomeTrashed = "trashed"
	// OutcomeContradicted: a reviewer found it contradicted (close_observation
	// only: no mechanical rule can tell).
	OutcomeContradicted = "contradicted"
)

// Outcomes are the outcomes a window may be closed with.
var Outcomes = []string{OutcomeHeld, OutcomeSuperseded, OutcomeTrashed, OutcomeContradicted}

// Closing is the close of one observation window: the memory, when its
// window started and ended, the outcome, the memory that superseded it
// and a reviewer's note.
type Closing struct {
	ID           string `json:"id"`
	Path         string `json:"path"`
	StartedAt    string `json:"started_at"`
	DueAt        string `json:"due_at"`
	Outcome      string `json:"outcome"`
	SupersededBy string `json:"superseded_by,omitempty"`
	Note         string `json:"note,omitempty"`
}

// window is a memory's observation window, when it is pending.
func window(m *mdstore.Memory) (started, due time.Time, ok bool) {
	return m.ObservationWindow()
}

// PlanObservations closes every pending observation window that is due at
// now (started_at + window_days ≤ now), by one rule, in this order:
//   - trashed: the memory is in the trash;
//   - superseded: a confirmed memory with the same dedup key (type and the
//     first prefix runes of brief) is newer (a later ingestion_time, or the
//     same and a greater id); superseded_by names the newest;
//   - held: otherwise.
//
// ms are the confirmed and trashed memories. It is pure; the closings are
// ordered by id.
func PlanObservations(ms []*mdstore.Memory, now time.Time, prefix int) []Closing {
	if prefix <= 0 {
		prefix = config.DefaultDedupPrefix
	}
	newest := map[string]*mdstore.Memory{}
	for _, m := range ms {
		if m.Status != "confirmed" {
			continue
		}
		k := DedupKey(m, prefix)
		if n := newest[k]; n == nil || newer(m, n) {
			newest[k] = m
		}
	}
	var out []Closing
	for _, m := range ms {
		started, due, ok := window(m)
		if !ok || due.After(now) {
			continue
		}
		c := Closing{ID: m.ID, Path: m.Path, StartedAt: started.Format(time.RFC3339), DueAt: due.Format(time.RFC3339), Outcome: OutcomeHeld}
		switch n := newest[DedupKey(m, prefix)]; {
		case m.Status == "trash":
			c.Outcome = OutcomeTrashed
		case n != nil && n != m && newer(n, m):
			c.Outcome, c.SupersededBy = OutcomeSuperseded, n.ID
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].ID < out[j].ID || (out[i].ID == out[j].ID && out[i].Path < out[j].Path)
	})
	return out
}

// newer reports whether a came after b: a later ingestion_time, or the
// same and a greater id.
func newer(a, b *mdstore.Memory) bool {
	if !a.IngestionTime.Equal(b.IngestionTime) {
		return a.IngestionTime.After(b.IngestionTime)
	}
	return a.ID > b.ID
}

// closeWindow records a closing in the memory's observation map (outcome,
// closed_at, superseded_by, note; other keys are kept) and adds the write
// to the changeset.
func closeWindow(s *mdstore.Store, m *mdstore.Memory, c Closing, now time.Time, cs *mdstore.Changeset) error {
	if m.Doc == nil {
		if err := s.LoadDocument(m); err != nil {
			return err
		}
	}
	sets := []Set{{"observation.outcome", c.Outcome}, {"observation.closed_at", now.UTC().Truncate(time.Second)}}
	if c.SupersededBy != "" {
		sets = append(sets, Set{"observation.superseded_by", c.SupersededBy})
	}
	if c.Note != "" {
		sets = append(sets, Set{"observation.note", c.Note})
	}
	for _, set := range sets {
		if err := setPath(m, set.Key, set.Value); err != nil {
			return fmt.Errorf("%s: %w", m.Path, err)
		}
	}
	cs.Write(m.Path, m.Doc.Bytes())
	return nil
}

// closeDue plans and records the closing of every due window among the
// confirmed and trashed memories of the store (those of a pass's changes,
// cs, as the pass leaves them). It returns the closings made and the files
// it could not read or edit.
//
// It reads only what the rule needs, through the memory index: the
// memories whose window is due, then the confirmed memories that share a
// dedup key with one of them (same type, same brief hash), which are the
// only ones that can supersede it.
func closeDue(s *mdstore.Store, now time.Time, prefix int, cs *mdstore.Changeset) ([]Closing, []*mdstore.InvalidFile, error) {
	if prefix <= 0 {
		prefix = config.DefaultDedupPrefix
	}
	written := map[string][]byte{}
	for _, ch := range cs.Changes {
		if ch.Data != nil {
			written[ch.Path] = ch.Data
		}
	}
	byPath := map[string]*mdstore.Memory{}
	var invalid []*mdstore.InvalidFile
	list := func(status string, match func(mdstore.MemorySummary) bool) error {
		res, err := cache.ListMemories(s, mdstore.MemoryQuery{Status: status, Light: true, Match: match})
		if err != nil {
			return err
		}
		for _, m := range res.Memories {
			byPath[m.Path] = m
		}
		for _, inv := range res.Invalid {
			if !containsInvalid(invalid, inv.Path) {
				invalid = append(invalid, inv)
			}
		}
		return nil
	}
	isDue := func(sum mdstore.MemorySummary) bool {
		return !sum.ObservationDue.IsZero() && !sum.ObservationDue.After(now)
	}
	for _, status := range []string{"confirmed", "trash"} {
		if err := list(status, isDue); err != nil {
			return nil, nil, err
		}
	}
	// the pass's promotions and trashings, as it writes them
	var fromPass []*mdstore.Memory
	for p, data := range written {
		if strings.HasPrefix(p, "memory/confirmed/") || strings.HasPrefix(p, "memory/trash/") {
			if pm, err := mdstore.ParseMemory(p, data); err == nil {
				fromPass = append(fromPass, pm)
			}
		}
	}
	type key struct {
		typ  string
		hash uint64
	}
	keys := map[key]bool{}
	for _, ms := range [][]*mdstore.Memory{slices.Collect(maps.Values(byPath)), fromPass} {
		for _, m := range ms {
			if _, due, ok := window(m); ok && !due.After(now) {
				keys[key{m.Type, mdstore.BriefHash(m.Brief, prefix)}] = true
			}
		}
	}
	if len(keys) == 0 {
		return nil, invalid, nil
	}
	types := map[string]bool{}
	for k := range keys {
		types[k.typ] = true
	}
	sameKey := func(sum mdstore.MemorySummary) bool {
		if prefix != s.DedupPrefix() { // the index hashes another prefix: the whole type
			return types[sum.Type]
		}
		return keys[key{sum.Type, sum.BriefHash}]
	}
	if err := list("confirmed", sameKey); err != nil {
		return nil, nil, err
	}
	for _, pm := range fromPass {
		byPath[pm.Path] = pm
	}
	ms := slices.Collect(maps.Values(byPath))
	var done []Closing
	for _, c := range PlanObservations(ms, now, prefix) {
		m := byPath[c.Path]
		if err := closeWindow(s, m, c, now, cs); err != nil {
			invalid = append(invalid, &mdstore.InvalidFile{Path: m.Path, Msg: err.Error()})
			continue
		}
		done = append(done, c)
	}
	return done, invalid, nil
}

// ObserveRequest asks to close the observation windows that are due.
type ObserveRequest struct {
	// DryRun lists them and changes nothing.
	DryRun bool
	// Save are the options of the store transaction's save.
	Save []mdstore.SaveOption
}

// ObserveReport lists the windows closed (or, in a dry run, due) with
// their outcomes, the run and its commit, and the files that could not
// be read.
type ObserveReport struct {
	Closed  []Closing              `json:"closed"`
	DryRun  bool                   `json:"dry_run"`
	RunID   string                 `json:"run_id"`
	Commit  string                 `json:"commit"`
	Invalid []*mdstore.InvalidFile `json:"invalid"`
}

// Observe closes every due observation window by the rule of
// PlanObservations, in one commit (none when no window is due).
func Observe(_ context.Context, tx *mdstore.Tx, req ObserveRequest) (*ObserveReport, error) {
	s := tx.Store
	now := s.Now()
	run := mdstore.NewRun("memory observe", now)
	closed, invalid, err := closeDue(s, now, s.Config.Memory.DedupPrefix, run.Changes)
	if err != nil {
		return nil, err
	}
	rep := &ObserveReport{Closed: nonNil(closed), DryRun: req.DryRun, RunID: run.Commit.RunID, Invalid: nonNil(invalid)}
	run.Commit.Summary = "memory observe: " + windows(len(closed)) + " closed"
	for _, c := range closed {
		run.Decide(c.decision())
	}
	if req.DryRun || len(closed) == 0 {
		return rep, nil
	}
	run.Invalid = invalid
	if rep.Commit, err = tx.Save(run, req.Save...); err != nil {
		return nil, err
	}
	return rep, nil
}

// decision is the closing's line in a commit message.
func (c Closing) decision() string {
	line := "observe " + c.ID + ": " + c.Outcome
	if c.SupersededBy != "" {
		line += " by " + c.SupersededBy
	}
	if c.Note != "" {
		line += " (" + c.Note + ")"
	}
	return line
}

// CloseObservationRequest closes one memory's observation window by a
// reviewer's judgement, due or not.
type CloseObservationRequest struct {
	ID      string
	Outcome string
	Note    string
	Save    []mdstore.SaveOption
}

// CloseObservationReport is the window closed and its commit.
type CloseObservationReport struct {
	Closing
	Commit string `json:"commit"`
}

// CloseObservation records a reviewer's outcome for one memory's pending
// observation window (one commit). An unknown outcome, or a memory without
// a pending window, is a wrong request.
func CloseObservation(_ context.Context, tx *mdstore.Tx, req CloseObservationRequest) (*CloseObservationReport, error) {
	if err := checkID(req.ID); err != nil {
		return nil, err
	}
	if !slices.Contains(Outcomes, req.Outcome) {
		return nil, refuse.Requestf("outcome %q: want one of %s", req.Outcome, strings.Join(Outcomes, ", "))
	}
	s := tx.Store
	if err := refuseSecret("close observation "+req.ID, s.Secrets().Check(secrets.Field{Name: "note", Text: req.Note})); err != nil {
		return nil, err
	}
	m, err := s.FindMemory(req.ID)
	if err != nil {
		return nil, err
	}
	started, due, ok := window(m)
	if !ok {
		return nil, refuse.Requestf("memory %s has no pending observation window (observation: %v)", m.ID, m.Observation)
	}
	now := s.Now()
	c := Closing{ID: m.ID, Path: m.Path, StartedAt: started.Format(time.RFC3339), DueAt: due.Format(time.RFC3339), Outcome: req.Outcome, Note: req.Note}
	run := mdstore.NewRun("memory close observation "+m.ID, now)
	run.Decide(c.decision())
	if err := closeWindow(s, m, c, now, run.Changes); err != nil {
		return nil, refuse.Blocked(err)
	}
	commit, err := tx.Save(run, req.Save...)
	if err != nil {
		return nil, err
	}
	return &CloseObservationReport{Closing: c, Commit: commit}, nil
}

// windows is "1 observation window" or "n observation windows".
func windows(n int) string {
	if n == 1 {
		return "1 observation window"
	}
	return fmt.Sprintf("%d observation windows", n)
}
