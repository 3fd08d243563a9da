package playbook

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/curator-dev/curator/mdstore"
)

// Stats describes the playbook at one moment.
type Stats struct {
	Active             int            `json:"active"`
	Archived           int            `json:"archived"`
	ByCategory         map[string]int `json:"by_category"`
	AvgConfidence      float64        `json:"avg_confidence"`
	Helpful            int            `json:"helpful_total"`
	Harmful            int            `json:"harmful_total"`
	ValidationRequired int            `json:"validation_required"`
	// Tokens estimates the playbook's size in a prompt (characters / 4).
	Tokens int `json:"estimated_tokens"`
}

// StatsOf computes the playbook's statistics (from the bullet index's
// summaries for the bullets a run did not ask for).
func StatsOf(pb *Playbook) Stats {
	st := Stats{ByCategory: map[string]int{}}
	conf := 0.0
	pb.eachActive(func(b activeFacts) {
		st.Active++
		st.ByCategory[b.Category]++
		conf += b.Confidence
		st.Helpful += b.Helpful
		st.Harmful += b.Harmful
		st.Tokens += tokens(b.ContentLen)
		if b.Validation == "required" {
			st.ValidationRequired++
		}
	})
	st.Archived = pb.bullets.len() - st.Active
	if st.Active > 0 {
		st.AvgConfidence = math.Round(conf/float64(st.Active)*1000) / 1000
	}
	return st
}

// StatsRequest asks for the playbook's statistics (`context stats`, the
// playbook_stats tool and resource).
type StatsRequest struct{}

// Statistics counts the playbook's bullets and the pending reflections.
func Statistics(_ context.Context, s *mdstore.Store, _ StatsRequest) (*StatsReport, error) {
	pb, _, invalid, err := Read(s, false, s.Now())
	if err != nil {
		return nil, err
	}
	defer s.WriteCaches()
	pending, err := s.ListReflections("pending")
	if err != nil {
		return nil, err
	}
	invalid = append(invalid, pending.Invalid...)
	return &StatsReport{Invalid: orEmpty(invalid), PendingReflections: len(pending.Reflections), Stats: StatsOf(pb)}, nil
}

// tokens estimates the prompt tokens of a text of n bytes.
func tokens(n int) int { return (n + 3) / 4 }

// QueryRequest selects active bullets (`context query`, the
// query_playbook tool).
type QueryRequest struct {
	Category string
	Tags     []string // every tag must be present
	Text     string   // ranked by similarity when set
	Limit    int      // at most this many (0: all)
}

// QueryResult is a bullet and, for a text query, its similarity.
type QueryResult struct {
	*mdstore.Bullet
	Score float64 `json:"score,omitempty"`
}

// Search returns the active bullets that match q: by similarity to q.Text
// (highest first) when set, else by priority, helpful count and id. With
// a matcher and a limit, a text query reads only the candidates the matcher
// finds above a similarity that at least q.Limit bullets reach.
func Search(pb *Playbook, score func(a, b string) float64, q QueryRequest) []QueryResult {
	if q.Text != "" && q.Limit > 0 && pb.Matcher != nil {
		if out, ok := searchMatcher(pb, q); ok {
			return out
		}
	}
	var taken []*mdstore.Bullet
	for _, b := range pb.sorted() {
		if (q.Category == "" || b.Category == q.Category) && hasTags(b.Tags, q.Tags) {
			taken = append(taken, b)
		}
	}
	if q.Text != "" {
		// Only the texts of the bullets the category and tags take are
		// read (the bullet index knows both).
		pb.readBullets(taken)
		if pb.lazy != nil && q.Category == "" && len(q.Tags) == 0 {
			pb.lazy.readAll = true // every active bullet: keep them (forgetReads)
		}
	}
	var out []QueryResult
	for _, b := range taken {
		if !b.IsActive || q.Category != "" && b.Category != q.Category || !hasTags(b.Tags, q.Tags) {
			continue // its file, read, says otherwise than the bullet index
		}
		r := QueryResult{Bullet: b}
		if q.Text != "" {
			r.Score = score(q.Text, b.Content)
			t := strings.ToLower(q.Text)
			if r.Score <= 0 && !strings.Contains(strings.ToLower(b.Content), t) && !contains(b.Tags, t) {
				continue
			}
		}
		out = append(out, r)
	}
	return sortResults(pb, out, q.Limit)
}

// searchFloors are the similarities a text query tries, highest first; the
// matcher is exact at and above each.
var searchFloors = []float64{0.6, 0.45, 0.3}

// searchMatcher answers a text query from the matcher when at least
// q.Limit bullets reach one of searchFloors, or score above 0: every
// bullet it leaves out scores below all of those it returns. False: fewer
// than q.Limit bullets score above 0, and every bullet must be read (a
// bullet that holds the text, or has it as a tag, is listed at score 0).
func searchMatcher(pb *Playbook, q QueryRequest) ([]QueryResult, bool) {
	var accept func(id string) bool // nil: every bullet, none looked up
	if q.Category != "" || len(q.Tags) > 0 {
		accept = func(id string) bool {
			b := pb.bullets.get(id)
			return (q.Category == "" || b.Category == q.Category) && hasTags(b.Tags, q.Tags)
		}
	}
	// The limit highest above a floor, and every bullet as high as the
	// limit-th: the same first q.Limit as scoring every bullet, once
	// q.Limit reach it. A higher floor leaves more of the posting lists
	// unread, so the floors are tried highest first.
	top := pb.Matcher.Search(q.Text)
	for _, floor := range searchFloors {
		var out []QueryResult
		for _, m := range top(floor, q.Limit, accept) {
			out = append(out, QueryResult{Bullet: pb.bullets.get(m.ID), Score: m.Score})
		}
		if len(out) >= q.Limit {
			return sortResults(pb, out, q.Limit), true
		}
	}
	// Fewer reach the lowest floor: the limit highest of every bullet
	// that scores above 0, as scoring every bullet would give them (the
	// index bounds each bullet by its words, and reads the texts of the
	// few it comes to).
	var out []QueryResult
	for _, m := range top(anyScore, q.Limit, accept) {
		if m.Score > 0 {
			out = append(out, QueryResult{Bullet: pb.bullets.get(m.ID), Score: m.Score})
		}
	}
	if len(out) >= q.Limit {
		return sortResults(pb, out, q.Limit), true
	}
	return nil, false
}

// anyScore is the least similarity a text query's last search takes:
// above 0, below every score a shared word gives.
const anyScore = 1e-6

// sortResults orders the results by score, then rank, keeps the first
// limit (0: all) and reads their bullets.
func sortResults(pb *Playbook, out []QueryResult, limit int) []QueryResult {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return ranksBefore(out[i].Bullet, out[j].Bullet)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	for _, r := range out {
		pb.Bullet(r.ID)
	}
	return out
}

// ranksBefore orders bullets by priority, helpful − harmful, confidence, id.
func ranksBefore(a, b *mdstore.Bullet) bool {
	return factsRankBefore(activeFacts{ID: a.ID, Priority: a.Priority, Helpful: a.HelpfulCount, Harmful: a.HarmfulCount, Confidence: a.Confidence},
		activeFacts{ID: b.ID, Priority: b.Priority, Helpful: b.HelpfulCount, Harmful: b.HarmfulCount, Confidence: b.Confidence})
}

// factsRankBefore is ranksBefore on what the bullet index holds.
func factsRankBefore(a, b activeFacts) bool {
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	if x, y := a.Helpful-a.Harmful, b.Helpful-b.Harmful; x != y {
		return x > y
	}
	if a.Confidence != b.Confidence {
		return a.Confidence > b.Confidence
	}
	return a.ID < b.ID
}

func hasTags(have, want []string) bool {
	for _, w := range want {
		if !contains(have, w) {
			return false
		}
	}
	return true
}
