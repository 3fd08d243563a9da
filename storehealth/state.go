package storehealth

import (
	"os"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// Memory is the memory side of the store now.
type Memory struct {
	// Inbox is how many entries wait in the inbox; Unprocessed those no
	// memory pass has looked at yet (newer than the watermark, or late).
	Inbox       int `json:"inbox"`
	Unprocessed int `json:"unprocessed"`
	// Oldest is the ingestion_time of the oldest unprocessed entry, and
	// OldestAge its age in seconds at the time of the report (zero: none).
	Oldest    time.Time `json:"oldest_unprocessed,omitzero"`
	OldestAge int64     `json:"oldest_unprocessed_age_seconds,omitempty"`
	// Confirmed counts the confirmed memories by type; Trash the trashed.
	Confirmed map[string]int `json:"confirmed_by_type"`
	Trash     int            `json:"trash"`
	Watermark time.Time      `json:"watermark,omitzero"`
}

// readMemory counts the memory folders by their file names and reads the
// inbox entries' frontmatter (light) for their ingestion times.
func readMemory(s *mdstore.Store, now time.Time) (Memory, []*mdstore.InvalidFile, error) {
	m := Memory{Confirmed: map[string]int{}}
	for _, t := range mdstore.MemoryTypes {
		n, err := records(s.Path("memory/confirmed/" + t))
		if err != nil {
			return m, nil, err
		}
		m.Confirmed[t] = n
	}
	var err error
	if m.Trash, err = records(s.Path("memory/trash")); err != nil {
		return m, nil, err
	}
	st, err := s.ReadMemoryState()
	if err != nil {
		return m, nil, err
	}
	m.Watermark = st.Watermark
	list, err := cache.ListMemories(s, mdstore.MemoryQuery{Status: "inbox", Light: true})
	if err != nil {
		return m, nil, err
	}
	m.Inbox = len(list.Memories)
	seen := make(map[string]bool, len(st.Seen))
	for _, id := range st.Seen {
		seen[id] = true
	}
	for _, e := range list.Memories {
		if !st.Watermark.IsZero() && e.IngestionTime.Before(st.Watermark) && seen[e.ID] {
			continue // a pass looked at it and kept it
		}
		m.Unprocessed++
		if m.Oldest.IsZero() || e.IngestionTime.Before(m.Oldest) {
			m.Oldest = e.IngestionTime
		}
	}
	if !m.Oldest.IsZero() {
		m.OldestAge = int64(now.Sub(m.Oldest) / time.Second)
	}
	return m, list.Invalid, nil
}

// records counts the record files of a folder (none when it is missing).
func records(dir string) (int, error) {
	es, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range es {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") && !strings.HasPrefix(e.Name(), ".") {
			n++
		}
	}
	return n, nil
}

// Playbook is the playbook now.
type Playbook struct {
	Active     int            `json:"active"`
	Archived   int            `json:"archived"`
	ByCategory map[string]int `json:"by_category"`
	// Confidence counts the active bullets by confidence, in tenths: [0]
	// is 0–0.1, [9] is 0.9–1.
	Confidence [10]int `json:"confidence"`
	// Helpful and Harmful count the active bullets by their counter, in the
	// bins of CounterBins.
	Helpful []int `json:"helpful"`
	Harmful []int `json:"harmful"`
	// Waiting are the bullets waiting for validation (the review queue:
	// validation required, confidence under 0.6, sensitive, high
	// priority never approved).
	Waiting []playbook.ReviewItem `json:"waiting"`
	// TopHelpful and TopHarmful are the ten bullets with the most helpful
	// (harmful) counts, at least one.
	TopHelpful []Bullet `json:"top_helpful"`
	TopHarmful []Bullet `json:"top_harmful"`
	// UnusedCount counts the active bullets not used for more than 90 days
	// (since last_used_at, or created_at when never used); Unused lists
	// the oldest of them, maxUnused at most, without their content.
	UnusedCount int      `json:"unused_count"`
	Unused      []Bullet `json:"unused"`
}

// Bullet is one bullet as the dashboard lists it.
type Bullet struct {
	ID         string    `json:"id"`
	Category   string    `json:"category"`
	Confidence float64   `json:"confidence"`
	Helpful    int       `json:"helpful_count"`
	Harmful    int       `json:"harmful_count"`
	LastUsed   time.Time `json:"last_used_at,omitzero"`
	Content    string    `json:"content,omitempty"`
}

// CounterBins are the bins of the helpful and harmful histograms: each the
// lowest count it holds (0, 1, 2, 3–4, 5–9, 10–19, 20 and more).
var CounterBins = []int{0, 1, 2, 3, 5, 10, 20}

// UnusedDays is how long a bullet unused counts as unused (the prune rule's
// 90 days).
const UnusedDays = playbook.PruneDays

// topN is how many bullets each top list holds; maxUnused how many unused
// bullets are listed.
const (
	topN      = 10
	maxUnused = 100
)

// readPlaybook reads the playbook through the bullet index.
func readPlaybook(s *mdstore.Store, now time.Time) (Playbook, []*mdstore.InvalidFile, error) {
	pb, _, invalid, err := playbook.Read(s, false, now)
	if err != nil {
		return Playbook{}, nil, err
	}
	defer s.WriteCaches()
	p := Playbook{ByCategory: map[string]int{}, Helpful: make([]int, len(CounterBins)), Harmful: make([]int, len(CounterBins))}
	active := pb.Active()
	p.Active, p.Archived = len(active), len(pb.Archived())
	var helpful, harmful, unused []*mdstore.Bullet
	cut := now.Add(-UnusedDays * 24 * time.Hour)
	for _, b := range active {
		p.ByCategory[b.Category]++
		p.Confidence[min(9, max(0, int(b.Confidence*10+playbook.Tolerance)))]++
		p.Helpful[bin(b.HelpfulCount)]++
		p.Harmful[bin(b.HarmfulCount)]++
		if b.HelpfulCount > 0 {
			helpful = append(helpful, b)
		}
		if b.HarmfulCount > 0 {
			harmful = append(harmful, b)
		}
		if lastUse(b).Before(cut) {
			unused = append(unused, b)
		}
	}
	p.Waiting = pb.ReviewQueue()
	sort.SliceStable(helpful, func(i, j int) bool { return helpful[i].HelpfulCount > helpful[j].HelpfulCount })
	sort.SliceStable(harmful, func(i, j int) bool { return harmful[i].HarmfulCount > harmful[j].HarmfulCount })
	sort.SliceStable(unused, func(i, j int) bool { return lastUse(unused[i]).Before(lastUse(unused[j])) })
	// list is the first n of bs; withText reads their content (a file
	// each: only for the few bullets of the top lists).
	list := func(bs []*mdstore.Bullet, n int, withText bool) []Bullet {
		out := []Bullet{}
		for _, b := range bs[:min(n, len(bs))] {
			it := Bullet{ID: b.ID, Category: b.Category, Confidence: b.Confidence, Helpful: b.HelpfulCount,
				Harmful: b.HarmfulCount, LastUsed: lastUse(b)}
			if full := pb.Bullet(b.ID); withText && full != nil {
				it.Content = full.Content
			}
			out = append(out, it)
		}
		return out
	}
	p.TopHelpful, p.TopHarmful = list(helpful, topN, true), list(harmful, topN, true)
	p.UnusedCount, p.Unused = len(unused), list(unused, maxUnused, false)
	if err := pb.Err(); err != nil {
		return p, invalid, err
	}
	if p.Waiting == nil {
		p.Waiting = []playbook.ReviewItem{}
	}
	return p, invalid, nil
}

// lastUse is when a bullet was last used, or made when never used.
func lastUse(b *mdstore.Bullet) time.Time {
	if b.LastUsedAt.IsZero() {
		return b.CreatedAt
	}
	return b.LastUsedAt
}

// bin is the CounterBins bin of a count.
func bin(n int) int {
	i := sort.SearchInts(CounterBins, n+1) - 1
	return max(0, i)
}
