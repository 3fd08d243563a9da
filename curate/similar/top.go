package similar

import (
	"cmp"
	"container/heap"
	"slices"
	"sort"

	"github.com/curator-dev/curator/internal/parallel"
)

// topMargin: a candidate whose bound is this far below a score cannot
// reach it, float rounding included.
const topMargin = 1e-6

// Top returns the items that accept takes (nil: all) with a similarity of
// at least min to text, highest first, then by id: the limit highest (0:
// all), and every item that scores as high as the limit-th. Candidates are
// taken from the highest upper bound down, and the search stops once limit
// items score above every bound left, so on a large index only a few
// candidates are scored.
//
// The candidates are kept in a heap with their bound from the words alone;
// the one on top has its bound lowered by the sentence check and goes
// back, and it is scored only once its tightest bound is still the
// highest. A query that leaves most items candidates (a store of
// repetitive words) so does the dear work for the few it comes to.
func (ix *Index) Top(text string, min float64, limit int, accept func(id string) bool) []Match {
	sr := NewSearch([]*Index{ix}, text)
	if limit > 0 && ix.lex != nil {
		// A higher floor leaves out more of the longest posting lists:
		// when limit items reach it, every item that could be among them
		// was a candidate there.
		for _, floor := range topFloors {
			if floor > min {
				if out, n := sr.top(max(floor, sr.reached(limit, accept)), limit, accept); n == limit {
					return out
				}
			}
		}
	}
	out, _ := sr.top(max(min, sr.reached(limit, accept)), limit, accept)
	return out
}

// TopOf is Top over several indexes as one (a playbook's categories): the
// candidates of all of them in one heap, so that only the few the search
// comes to, in whichever index, have their sentence check and score. Each
// index finds and bounds its own candidates, the indexes on every core. It
// takes the candidates at min only, not at higher floors first: a floor
// that too few items reach would have its candidates scored for nothing,
// their texts read.
func TopOf(ixs []*Index, text string, min float64, limit int, accept func(id string) bool) []Match {
	return NewSearch(ixs, text).Top(min, limit, accept)
}

// Search is one text asked of several indexes as one (TopOf), at one
// floor and then, when too few items reach it, at a lower one: the text is
// analysed once, and an item scored at one floor is not scored again at
// the next (its score is its bound there). The indexes must not change
// while it is used.
type Search struct {
	srcs   []topSource
	scores map[*item]float64 // the items scored so far
}

// NewSearch analyses text for the indexes ixs.
func NewSearch(ixs []*Index, text string) *Search {
	sr := &Search{srcs: make([]topSource, len(ixs))}
	for i, ix := range ixs {
		// Indexes of one engine share the analysis.
		for j := range i {
			if ixs[j].lex != nil && ixs[j].lex == ix.lex {
				sr.srcs[i] = topSource{ix, sr.srcs[j].q}
				break
			}
		}
		if sr.srcs[i].q == nil {
			sr.srcs[i] = topSource{ix, ix.query(text)}
		}
	}
	return sr
}

// Top is TopOf at min for the search's text. Asked again at a lower
// floor, it takes the items scored before: when limit of them reach a
// score above min, that score is the floor (every item that could be
// among the limit highest reaches it), and fewer posting lists are read.
func (sr *Search) Top(min float64, limit int, accept func(id string) bool) []Match {
	out, _ := sr.top(max(min, sr.reached(limit, accept)), limit, accept)
	return out
}

// reached is the limit-th highest score, less topMargin, of the items
// scored so far that accept takes (0: fewer were scored): at least limit
// items reach it.
func (sr *Search) reached(limit int, accept func(id string) bool) float64 {
	if limit <= 0 || len(sr.scores) < limit {
		return 0
	}
	type scored struct {
		it *item
		s  float64
	}
	ss := make([]scored, 0, len(sr.scores))
	for it, s := range sr.scores {
		ss = append(ss, scored{it, s})
	}
	slices.SortFunc(ss, func(a, b scored) int { return cmp.Compare(b.s, a.s) })
	n := 0
	for _, x := range ss {
		if accept == nil || accept(x.it.id) {
			if n++; n == limit {
				return max(0, x.s-topMargin)
			}
		}
	}
	return 0
}

// topFloors are the floors Top tries first, highest first.
var topFloors = []float64{0.6, 0.45}

// topSource is an index and the query analysed for it.
type topSource struct {
	ix *Index
	q  *query
}

// top is Top, and how many items reached min (at most limit).
func (sr *Search) top(min float64, limit int, accept func(id string) bool) ([]Match, int) {
	srcs := sr.srcs
	if len(srcs) == 0 {
		return nil, 0
	}
	// The candidates and the heap are the indexes' scratch, kept for the
	// next query (the first index's heap), sized at once: a query that
	// most items reach has 100,000 candidates, and memory never touched
	// costs nothing.
	cands := make([][]candidate, len(srcs))
	stages := make([]boundStage, len(srcs))
	n := 0
	// Each index bounds its own items, on every core.
	parallel.For(len(srcs), func(i int) {
		src := srcs[i]
		stages[i] = boundSentence
		if src.ix.lex != nil {
			stages[i] = boundWords
		}
		cands[i] = src.ix.candidatesInto(src.ix.scratch.cands, src.q, min-eps, stages[i])
		src.ix.scratch.cands = cands[i]
	})
	for i := range srcs {
		n += len(cands[i])
	}
	h := srcs[0].ix.scratch.heap[:0]
	if cap(h) < n {
		h = make(boundHeap, 0, n)
	}
	defer func() { srcs[0].ix.scratch.heap = h[:0] }()
	for i, cs := range cands {
		for _, c := range cs {
			h = append(h, topCandidate{candidate: c, src: int32(i), stage: stages[i]})
		}
	}
	heap.Init(&h)
	var out []Match
	var top []float64 // the highest scores, at most limit, highest first
	for h.Len() > 0 {
		c := &h[0]
		if limit > 0 && len(top) == limit && c.bound+topMargin < top[limit-1] {
			break // no candidate left can reach the limit-th score
		}
		if !c.accepted {
			if accept != nil && !accept(c.it.id) {
				heap.Pop(&h)
				continue
			}
			c.accepted = true
		}
		src := srcs[c.src]
		if c.stage == boundWords {
			if s, ok := sr.scores[c.it]; ok {
				c.bound = s // scored at a higher floor: no tighter bound
			} else {
				c.bound = src.ix.sentenceBound(src.q, c.it, c.bound)
			}
			c.stage = boundSentence
			if c.bound < min-2*eps {
				heap.Pop(&h) // cannot reach min
			} else {
				heap.Fix(&h, 0)
			}
			continue
		}
		it := c.it
		heap.Pop(&h)
		s, ok := sr.scores[it]
		if !ok {
			s = src.ix.score(src.q, it)
			if sr.scores == nil {
				sr.scores = map[*item]float64{}
			}
			sr.scores[it] = s
		}
		if s < min-eps {
			continue
		}
		out = append(out, Match{ID: it.id, Score: s})
		i := sort.Search(len(top), func(i int) bool { return top[i] < s })
		top = slices.Insert(top, i, s)
		if limit > 0 && len(top) > limit {
			top = top[:limit]
		}
	}
	sortMatches(out)
	return out, len(top)
}

// topCandidate is a candidate of Top: how far its bound is worked out, and
// whether accept took it.
type topCandidate struct {
	candidate
	src      int32 // which of top's sources it comes from
	stage    boundStage
	accepted bool
}

// boundHeap holds Top's candidates, the highest bound on top. Equal
// bounds come up in any order: every item that can reach the limit-th
// score is scored whatever the order.
type boundHeap []topCandidate

func (h boundHeap) Len() int           { return len(h) }
func (h boundHeap) Less(i, j int) bool { return h[i].bound > h[j].bound }
func (h boundHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *boundHeap) Push(x any)        { *h = append(*h, x.(topCandidate)) }
func (h *boundHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
