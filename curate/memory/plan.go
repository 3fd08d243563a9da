package memory

import (
	"sort"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/mdstore"
)

// Options are the settings of a memory pass.
type Options struct {
	// DedupPrefix is how many runes of brief make the dedup key
	// (config.yaml memory.dedup_prefix; 0 means config.DefaultDedupPrefix).
	DedupPrefix int
	// Progress, when set, follows the reading of the window's files.
	Progress func(done, total int)
}

// Memory action kinds.
const (
	ActPromote = "promote"
	ActTrash   = "trash"
	ActKeep    = "keep"
)

// Trash reasons, and why an entry is left in the inbox unscored.
const (
	ReasonDuplicate = "duplicate"
	ReasonLowScore  = "low_score"
	// ReasonOtherAuthors: the entry shares its dedup key with entries of
	// other authors; deep reflection, not the score, decides what to keep.
	ReasonOtherAuthors = "different_authors"
)

// Action is one decision of the memory pass.
type Action struct {
	Kind        string  `json:"action"`
	ID          string  `json:"id"`
	Type        string  `json:"type"`
	Score       float64 `json:"score"`
	Channel     string  `json:"channel,omitempty"`
	Reason      string  `json:"reason,omitempty"`
	DuplicateOf string  `json:"duplicate_of,omitempty"`
	// SharesKeyWith are the entries of other authors with the same dedup
	// key (left for reflection).
	SharesKeyWith []string `json:"shares_key_with,omitempty"`
}

// Plan is every decision of one pass, grouped as the report shows them.
type Plan struct {
	Window     Window   `json:"window"`
	Candidates []string `json:"candidates"`
	Duplicates []Action `json:"duplicates"`
	Promoted   []Action `json:"promoted"`
	Discarded  []Action `json:"discarded"`
	Kept       []Action `json:"kept"`
	// LeftForReflection are the entries that share their dedup key with
	// entries of other authors: they stay in the inbox, neither scored into
	// confirmed nor trashed, for deep reflection.
	LeftForReflection []Action `json:"left_for_reflection"`
	// Late are the candidates older than the window, curated with it: in
	// a pass from the watermark, the entries older than the watermark
	// that no earlier pass looked at.
	Late []string `json:"late"`
}

// PlanPass decides, for every inbox entry of the window, whether it is a
// duplicate, promoted, discarded or kept. It is pure: same input, same plan.
//
// An entry outside the window is no candidate, except in a pass from the
// watermark (w.FromWatermark), where an entry older than the window is
// late and curated with the window's entries. The first pass from the
// watermark (w.From zero: there is none yet) starts at the oldest entry,
// or, with none, is the empty window at w.To.
func PlanPass(w Window, entries []*mdstore.Memory, opt Options) *Plan {
	if opt.DedupPrefix <= 0 {
		opt.DedupPrefix = config.DefaultDedupPrefix
	}
	if w.From.IsZero() && w.FromWatermark {
		w.From = w.To
		for _, m := range entries {
			if m.IngestionTime.Before(w.From) {
				w.From = m.IngestionTime.UTC()
			}
		}
	}
	p := &Plan{Window: w, Duplicates: []Action{}, Promoted: []Action{}, Discarded: []Action{}, Kept: []Action{}, LeftForReflection: []Action{}, Late: []string{}}
	var ms []*mdstore.Memory
	for _, m := range entries {
		switch {
		case w.Contains(m.IngestionTime):
		case w.FromWatermark && m.IngestionTime.Before(w.From):
			p.Late = append(p.Late, m.ID)
		default:
			continue
		}
		ms = append(ms, m)
	}
	sort.Strings(p.Late)
	mdstore.SortMemories(ms)
	p.Candidates = make([]string, 0, len(ms))
	for _, m := range ms {
		p.Candidates = append(p.Candidates, m.ID)
	}
	dupOf := Duplicates(ms, opt.DedupPrefix)
	shared := SharedKeys(ms, dupOf, opt.DedupPrefix)
	for _, m := range ms {
		score := Score(m)
		a := Action{ID: m.ID, Type: m.Type, Score: round(score)}
		if keep, ok := dupOf[m.ID]; ok {
			a.Kind, a.Reason, a.DuplicateOf = ActTrash, ReasonDuplicate, keep
			p.Duplicates = append(p.Duplicates, a)
			continue
		}
		if others := shared[m.ID]; len(others) > 0 {
			a.Kind, a.Reason, a.SharesKeyWith = ActKeep, ReasonOtherAuthors, others
			p.LeftForReflection = append(p.LeftForReflection, a)
			continue
		}
		if m.Type != "lesson" {
			if ch := Channel(m, score); ch != "" {
				a.Kind, a.Channel = ActPromote, ch
				p.Promoted = append(p.Promoted, a)
				continue
			}
		}
		if !atLeast(score, TrashScore) {
			a.Kind, a.Reason = ActTrash, ReasonLowScore
			p.Discarded = append(p.Discarded, a)
			continue
		}
		a.Kind = ActKeep
		p.Kept = append(p.Kept, a)
	}
	return p
}

// round keeps scores readable in reports (0.75 rather than 0.7500000000000001).
func round(f float64) float64 {
	const k = 1e6
	if f < 0 {
		return -float64(int64(-f*k+0.5)) / k
	}
	return float64(int64(f*k+0.5)) / k
}

// DedupKey is (type, first n runes of brief).
func DedupKey(m *mdstore.Memory, n int) string {
	r := []rune(m.Brief)
	if len(r) > n {
		r = r[:n]
	}
	return m.Type + "\x00" + string(r)
}

// Duplicates maps each duplicate's id to the id of the entry kept in its
// place: within a dedup group, entries of the same author keep only the
// newest (ingestion_time, then id); entries of different authors are left alone.
func Duplicates(ms []*mdstore.Memory, prefix int) map[string]string {
	type key struct{ dedup, author string }
	groups := map[key][]*mdstore.Memory{}
	var order []key
	for _, m := range ms {
		k := key{DedupKey(m, prefix), m.Author}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], m)
	}
	out := map[string]string{}
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		sort.Slice(g, func(i, j int) bool {
			if !g[i].IngestionTime.Equal(g[j].IngestionTime) {
				return g[i].IngestionTime.Before(g[j].IngestionTime)
			}
			return g[i].ID < g[j].ID
		})
		newest := g[len(g)-1]
		for _, m := range g[:len(g)-1] {
			out[m.ID] = newest.ID
		}
	}
	return out
}

// SharedKeys maps each entry that is not a duplicate (dupOf) and shares its
// dedup key with entries of other authors to those entries' ids, sorted.
func SharedKeys(ms []*mdstore.Memory, dupOf map[string]string, prefix int) map[string][]string {
	groups := map[string][]*mdstore.Memory{}
	for _, m := range ms {
		if _, dup := dupOf[m.ID]; !dup {
			k := DedupKey(m, prefix)
			groups[k] = append(groups[k], m)
		}
	}
	out := map[string][]string{}
	for _, g := range groups {
		for _, m := range g {
			var others []string
			for _, o := range g {
				if o.Author != m.Author {
					others = append(others, o.ID)
				}
			}
			if len(others) > 0 {
				sort.Strings(others)
				out[m.ID] = others
			}
		}
	}
	return out
}
