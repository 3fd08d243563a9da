package memory

import (
	"fmt"
	"sync"
	"time"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/mdstore"
)

// Trashed is the `trashed` map of a memory in the trash.
type Trashed struct {
	At          string   `yaml:"at"`
	Reason      string   `yaml:"reason"`
	Run         string   `yaml:"run,omitempty"`
	DuplicateOf string   `yaml:"duplicate_of,omitempty"`
	Score       *float64 `yaml:"score,omitempty"`
	// From is the folder it came from, so restore can put it back.
	From string `yaml:"from"`
}

// Observation is the `observation` map set on promotion.
type Observation struct {
	StartedAt  time.Time `yaml:"started_at"`
	WindowDays int       `yaml:"window_days"`
	Outcome    string    `yaml:"outcome"`
}

// Apply turns a plan into file moves. Every entry of the plan must be
// in byID; records listed without their document are loaded from the store.
// An entry that cannot be moved (its document does not take the edit, or a
// file is already at its destination) is left in place, taken out of the
// plan and returned as skipped. The records are edited on all cores; the
// changeset lists the moves in plan order, and each edited document is
// released once its move is recorded.
func Apply(p *Plan, byID map[string]*mdstore.Memory, s *mdstore.Store, run string, now time.Time, cs *mdstore.Changeset) ([]*mdstore.InvalidFile, error) {
	promoted, err := promotionKeys(now, s.Config.Memory.ObservationDays)
	if err != nil {
		return nil, err
	}
	type job struct {
		m    *mdstore.Memory
		dst  string
		edit func(*mdstore.Changeset) error
	}
	var jobs []job
	blocks := &trashedBlocks{}
	for _, group := range [][]Action{p.Duplicates, p.Discarded} {
		for _, a := range group {
			m, t := byID[a.ID], Trashed{Reason: a.Reason, Run: run, DuplicateOf: a.DuplicateOf, Score: &a.Score}
			jobs = append(jobs, job{m, mdstore.MemoryPath("trash", m.Type, m.ID), func(cs *mdstore.Changeset) error { return trash(m, t, now, cs, blocks) }})
		}
	}
	for _, a := range p.Promoted {
		m := byID[a.ID]
		jobs = append(jobs, job{m, mdstore.MemoryPath("confirmed", m.Type, m.ID), func(cs *mdstore.Changeset) error { return promote(m, promoted, cs) }})
	}
	parts := make([]mdstore.Changeset, len(jobs))
	skipped := make([]*mdstore.InvalidFile, len(jobs))
	parallel.For(len(jobs), func(i int) {
		j := jobs[i]
		var err error
		switch {
		case j.dst != j.m.Path && s.Exists(j.dst):
			err = fmt.Errorf("cannot move it to %s: a file is already there (left in place)", j.dst)
		default:
			if err = s.LoadDocument(j.m); err == nil {
				err = j.edit(&parts[i])
			}
			j.m.Doc = nil
		}
		if err != nil {
			skipped[i] = &mdstore.InvalidFile{Path: j.m.Path, Msg: err.Error()}
			parts[i] = mdstore.Changeset{}
		}
	})
	var out []*mdstore.InvalidFile
	drop := map[string]bool{}
	for i := range parts {
		if skipped[i] != nil {
			out = append(out, skipped[i])
			drop[jobs[i].m.ID] = true
			continue
		}
		cs.Changes = append(cs.Changes, parts[i].Changes...)
	}
	if len(drop) > 0 {
		p.drop(drop)
	}
	return out, nil
}

// drop takes entries out of the plan (they were skipped).
func (p *Plan) drop(ids map[string]bool) {
	filter := func(as []Action) []Action {
		out := as[:0]
		for _, a := range as {
			if !ids[a.ID] {
				out = append(out, a)
			}
		}
		return out
	}
	p.Duplicates, p.Promoted, p.Discarded, p.Kept = filter(p.Duplicates), filter(p.Promoted), filter(p.Discarded), filter(p.Kept)
	p.LeftForReflection = filter(p.LeftForReflection)
}

// Trash moves a memory to the trash, recording why.
func Trash(m *mdstore.Memory, t Trashed, now time.Time, cs *mdstore.Changeset) error {
	return trash(m, t, now, cs, nil)
}

// trash is Trash with the trashed blocks of a run encoded once each
// (blocks nil: encoded here).
func trash(m *mdstore.Memory, t Trashed, now time.Time, cs *mdstore.Changeset, blocks *trashedBlocks) error {
	t.At = now.UTC().Format(time.RFC3339)
	t.From = folderOf(m)
	var block any = t
	if blocks != nil {
		enc, err := blocks.encode(t)
		if err != nil {
			return fmt.Errorf("%s: %w", m.Path, err)
		}
		block = enc
	}
	if err := setAll(m, "status", statusTrash, "trashed", block); err != nil {
		return err
	}
	cs.Move(m.Path, mdstore.MemoryPath("trash", m.Type, m.ID), m.Doc.Bytes())
	return nil
}

// statusTrash is the status of a memory in the trash, encoded once.
var statusTrash, _ = frontmatter.Encode("status", "trash")

// trashedBlocks are the trashed blocks a run has encoded: most of a run's
// trashed memories share one (the same reason, run, time and score), and
// encoding it costs more than the edit.
type trashedBlocks struct {
	mu  sync.Mutex
	enc map[trashedKey]frontmatter.Encoded
}

// trashedKey is a trashed block as a map key (its score by value).
type trashedKey struct {
	Trashed
	score    float64
	hasScore bool
}

// encode is the "trashed" key with t as its value, encoded once.
func (b *trashedBlocks) encode(t Trashed) (frontmatter.Encoded, error) {
	k := trashedKey{Trashed: t}
	if t.Score != nil {
		k.score, k.hasScore = *t.Score, true
	}
	k.Score = nil
	b.mu.Lock()
	defer b.mu.Unlock()
	if enc, ok := b.enc[k]; ok {
		return enc, nil
	}
	enc, err := frontmatter.Encode("trashed", t)
	if err != nil {
		return nil, err
	}
	if b.enc == nil {
		b.enc = map[trashedKey]frontmatter.Encoded{}
	}
	b.enc[k] = enc
	return enc, nil
}

// Promote moves a memory to confirmed/<type>/ and starts its observation
// period of days (config.yaml memory.observation_days).
func Promote(m *mdstore.Memory, now time.Time, days int, cs *mdstore.Changeset) error {
	keys, err := promotionKeys(now, days)
	if err != nil {
		return err
	}
	return promote(m, keys, cs)
}

// promotionKeys are the keys a promotion sets, encoded once for a whole run.
func promotionKeys(now time.Time, days int) ([]frontmatter.KV, error) {
	var keys []frontmatter.KV
	for _, kv := range []frontmatter.KV{
		{Key: "maturity", Value: "confirmed"},
		{Key: "status", Value: "confirmed"},
		{Key: "observation", Value: Observation{StartedAt: now.UTC(), WindowDays: days, Outcome: "pending"}},
	} {
		enc, err := frontmatter.Encode(kv.Key, kv.Value)
		if err != nil {
			return nil, err
		}
		keys = append(keys, frontmatter.KV{Key: kv.Key, Value: enc})
	}
	return keys, nil
}

func promote(m *mdstore.Memory, keys []frontmatter.KV, cs *mdstore.Changeset) error {
	if err := m.Doc.SetAll(keys...); err != nil {
		return fmt.Errorf("%s: %w", m.Path, err)
	}
	cs.Move(m.Path, mdstore.MemoryPath("confirmed", m.Type, m.ID), m.Doc.Bytes())
	return nil
}

// putBack puts a trashed memory back where it was.
func putBack(m *mdstore.Memory, cs *mdstore.Changeset) (string, error) {
	if m.Status != "trash" {
		return "", fmt.Errorf("memory %s is %w (it is %s)", m.ID, ErrNotInTrash, m.Status)
	}
	status := "inbox"
	if from, _ := m.Trashed["from"].(string); from == "confirmed" {
		status = "confirmed"
	}
	if err := setAll(m, "status", status); err != nil {
		return "", err
	}
	if err := m.Doc.Delete("trashed"); err != nil {
		return "", err
	}
	dst := mdstore.MemoryPath(status, m.Type, m.ID)
	cs.Move(m.Path, dst, m.Doc.Bytes())
	return dst, nil
}

func folderOf(m *mdstore.Memory) string {
	return m.Status
}

// setAll sets key/value pairs on the memory's document.
func setAll(m *mdstore.Memory, kv ...any) error {
	pairs := make([]frontmatter.KV, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, frontmatter.KV{Key: kv[i].(string), Value: kv[i+1]})
	}
	if err := m.Doc.SetAll(pairs...); err != nil {
		return fmt.Errorf("%s: %w", m.Path, err)
	}
	return nil
}
