package similar

import (
	"slices"
	"sort"
)

// topMargin: a candidate whose bound is this far below a score cannot
// reach it, float rounding included.
const topMargin = 1e-6

// Top returns the items that accept takes (nil: all) with a similarity of
// at least min to text, highest first, then by id: the limit highest (0:
// all), and every item that scores as high as the limit-th. Candidates are
// scored from the highest upper bound down, and the search stops once
// limit items score above every bound left, so on a large index only a few
// candidates are scored.
func (ix *Index) Top(text string, min float64, limit int, accept func(id string) bool) []Match {
	cands := ix.Candidates(text, min)
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].Bound != cands[j].Bound {
			return cands[i].Bound > cands[j].Bound
		}
		return cands[i].ID < cands[j].ID
	})
	var out []Match
	var top []float64 // the highest scores, at most limit, highest first
	for _, c := range cands {
		if limit > 0 && len(top) == limit && c.Bound+topMargin < top[limit-1] {
			break // no candidate left can reach the limit-th score
		}
		if accept != nil && !accept(c.ID) {
			continue
		}
		s := c.Score()
		if s < min-eps {
			continue
		}
		out = append(out, Match{ID: c.ID, Score: s})
		i := sort.Search(len(top), func(i int) bool { return top[i] < s })
		top = slices.Insert(top, i, s)
		if limit > 0 && len(top) > limit {
			top = top[:limit]
		}
	}
	sortMatches(out)
	return out
}
