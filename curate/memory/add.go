package memory

import (
	"context"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// AddRequest asks for a new memory in the inbox.
type AddRequest struct {
	// Record is the new memory: a zero IngestionTime means now, a zero
	// Confidence the default (3), an empty ID one made from the time.
	Record mdstore.NewMemory
	// ConfidenceSet says the confidence was given (`--confidence`): then 0
	// is refused instead of read as the default.
	ConfidenceSet bool
	// Save are the options of the store transaction's save.
	Save []mdstore.SaveOption
}

// Moved is the report of an operation that writes or moves one memory:
// the commit, the memory and where its file is now ("" once removed).
type Moved struct {
	Commit string `json:"commit"`
	ID     string `json:"id"`
	Path   string `json:"path"`
	// From is where the file was before.
	From string `json:"-"`
	// Unreadable is why the file of a deleted memory could not be read,
	// when it was removed as it was (git history keeps it).
	Unreadable string `json:"-"`
	// Warnings are what the caller should know of the memory it added:
	// one without importance factors scores 0, so the next pass trashes it.
	Warnings []string `json:"warnings,omitempty"`
}

// Check refuses a new memory whose type, confidence, importance factors,
// id or text fields cannot be stored.
func (r AddRequest) Check() error {
	m := r.Record
	if !slices.Contains(mdstore.MemoryTypes, m.Type) {
		return refuse.Requestf("type %q: want one of %s", m.Type, strings.Join(mdstore.MemoryTypes, ", "))
	}
	if m.Confidence < 0 || m.Confidence > 5 || (r.ConfidenceSet && m.Confidence == 0) {
		return refuse.Phrasef("content_confidence", "%d: want 1 to 5", m.Confidence)
	}
	names := make([]string, 0, len(m.Factors))
	for name := range m.Factors {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(mdstore.ImportanceFactors, name) {
			return refuse.Requestf("importance_factors: unknown factor %q (known: %s)", name, strings.Join(mdstore.ImportanceFactors, ", "))
		}
		if v := m.Factors[name]; !(v >= 0 && v <= 1) {
			return refuse.Requestf("importance_factors.%s %v: want a number in [0,1]", name, v)
		}
	}
	// YAML would store such text as !!binary, and read it back changed.
	for _, f := range [...]struct{ param, text string }{{"brief", m.Brief}, {"author", m.Author}, {"scenario", m.Scenario}, {"id", m.ID}} {
		if !utf8.ValidString(f.text) {
			return refuse.Phrasef(f.param, "is not valid UTF-8")
		}
	}
	for _, t := range m.Tags {
		if !utf8.ValidString(t) {
			return refuse.Phrasef("tags", "hold text that is not valid UTF-8")
		}
	}
	if m.ID != "" {
		return checkID(m.ID)
	}
	return nil
}

// Add writes a new memory into the inbox (one commit). A secret in any of
// its fields refuses it; an id already taken by another file is a wrong
// request, so no file is ever overwritten.
func Add(_ context.Context, tx *mdstore.Tx, req AddRequest) (*Moved, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	s := tx.Store
	now := s.Now()
	rec := req.Record
	if rec.IngestionTime.IsZero() {
		rec.IngestionTime = now
	}
	m, err := mdstore.NewMemoryRecord(rec)
	if err != nil {
		return nil, refuse.Blocked(err)
	}
	if err := refuseSecret("memory add", s.Secrets().Check(m.TextFields()...)); err != nil {
		return nil, err
	}
	if rel := s.ExistingMemoryFile(m.ID); rel != "" {
		return nil, refuse.Requestf("memory %s already exists (%s)", m.ID, rel)
	}
	commit, err := tx.Save(PlanAdd(m, now).Run, req.Save...)
	if err != nil {
		return nil, err
	}
	rep := &Moved{Commit: commit, ID: m.ID, Path: m.Path, From: m.Path}
	if len(rec.Factors) == 0 {
		rep.Warnings = append(rep.Warnings, m.ID+" has no importance factors, so it scores 0 and the next memory curate pass will trash it")
	}
	return rep, nil
}
