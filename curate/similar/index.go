package similar

import (
	"sort"
)

// Match is an indexed item and its exact similarity to a query.
type Match struct {
	ID    string
	Score float64
}

// Pair is two indexed items (A < B) and their similarity.
type Pair struct {
	A, B  string
	Score float64
}

// eps absorbs float rounding between bounds and exact scores.
const eps = 1e-9

// Index finds the items most similar to a text without scoring every item.
// With the lexical engine it keeps an inverted index from word keys (Porter
// stems) to items, plus the WordNet concepts of each key, and scores exactly
// only the items that share enough of the query's meaning to possibly reach
// the asked threshold (prefix filtering on a proven upper bound), so its
// answers equal BruteForce's at and above that threshold. With other engines
// it compares the query with every item.
//
// An Index is built in memory on each run and is not safe for concurrent use.
type Index struct {
	engine Engine
	lex    *Lexical // nil: not a lexical engine, scan everything
	floor  float64

	items    []*item          // by slot; nil once removed
	byID     map[string]int32 // id -> slot
	postings map[string][]int32
	vocab    map[int32][]string // concept -> keys of indexed terms holding it
	seen     map[[2]string]bool // (key, lemma) pairs already in vocab
	removed  int
}

type item struct {
	id, text string
	doc      *doc
}

// NewIndex returns an empty index that answers exactly for scores of at
// least MergeFloor in Best.
func NewIndex(e Engine) *Index {
	ix := &Index{engine: e, floor: MergeFloor}
	if l, ok := e.(*Lexical); ok {
		ix.lex = l
	}
	ix.reset()
	return ix
}

func (ix *Index) reset() {
	ix.items, ix.removed = nil, 0
	ix.byID = map[string]int32{}
	ix.postings = map[string][]int32{}
	ix.vocab = map[int32][]string{}
	ix.seen = map[[2]string]bool{}
}

// Len is the number of items.
func (ix *Index) Len() int { return len(ix.byID) }

// Add indexes text under id, replacing what id held before.
func (ix *Index) Add(id, text string) {
	ix.Remove(id)
	it := &item{id: id, text: text}
	slot := int32(len(ix.items))
	ix.items = append(ix.items, it)
	ix.byID[id] = slot
	if ix.lex == nil {
		return
	}
	it.doc = ix.lex.analyze(text)
	for _, t := range it.doc.terms {
		if t.stop {
			continue
		}
		ix.postings[t.key] = append(ix.postings[t.key], slot)
		if k := [2]string{t.key, t.lemma}; !ix.seen[k] {
			ix.seen[k] = true
			for _, c := range t.concepts {
				ix.vocab[c.id] = append(ix.vocab[c.id], t.key)
			}
		}
	}
}

// Remove drops id from the index; unknown ids are ignored.
func (ix *Index) Remove(id string) {
	slot, ok := ix.byID[id]
	if !ok {
		return
	}
	delete(ix.byID, id)
	ix.items[slot] = nil
	ix.removed++
	if ix.removed > 1024 && ix.removed > len(ix.items)/2 {
		ix.compact()
	}
}

// compact rebuilds the postings without removed items.
func (ix *Index) compact() {
	live := make([]*item, 0, len(ix.byID))
	for _, it := range ix.items {
		if it != nil {
			live = append(live, it)
		}
	}
	ix.reset()
	for _, it := range live {
		ix.Add(it.id, it.text)
	}
}

// Best returns the most similar item that filter accepts (nil accepts all);
// ties go to the smaller id. The answer is exact whenever the best score is
// at least MergeFloor; below it, the match is the best among the items the
// index looked at (ok is false when it looked at none).
func (ix *Index) Best(text string, filter func(id string) bool) (Match, bool) {
	q := ix.query(text)
	cands := ix.candidates(q, ix.floor-eps)
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].bound != cands[j].bound {
			return cands[i].bound > cands[j].bound
		}
		return cands[i].it.id < cands[j].it.id
	})
	var best Match
	found := false
	for _, c := range cands {
		if found && c.bound+eps < best.Score {
			break // no later candidate can reach the best score
		}
		if filter != nil && !filter(c.it.id) {
			continue
		}
		s := ix.score(q, c.it)
		if !found || s > best.Score || (s == best.Score && c.it.id < best.ID) {
			best, found = Match{c.it.id, s}, true
		}
	}
	return best, found
}

// Above returns every item that filter accepts with a score of at least
// min (within 1e-9), sorted by score, highest first, then by id.
func (ix *Index) Above(text string, min float64, filter func(id string) bool) []Match {
	q := ix.query(text)
	var out []Match
	for _, c := range ix.candidates(q, min-eps) {
		if filter != nil && !filter(c.it.id) {
			continue
		}
		if s := ix.score(q, c.it); s >= min-eps {
			out = append(out, Match{c.it.id, s})
		}
	}
	sortMatches(out)
	return out
}

// Pairs returns every pair of items with a score of at least min, sorted by
// score, highest first, then by ids. Each item is matched through the index
// against the items with larger ids, never against all n² pairs.
func (ix *Index) Pairs(min float64) []Pair {
	var out []Pair
	for _, it := range ix.sortedItems() {
		a := it.id
		for _, m := range ix.Above(it.text, min, func(id string) bool { return id > a }) {
			out = append(out, Pair{a, m.ID, m.Score})
		}
	}
	sortPairs(out)
	return out
}

func (ix *Index) sortedItems() []*item {
	live := make([]*item, 0, len(ix.byID))
	for _, it := range ix.items {
		if it != nil {
			live = append(live, it)
		}
	}
	sort.Slice(live, func(i, j int) bool { return live[i].id < live[j].id })
	return live
}

// query is an analysed query text.
type query struct {
	text string
	doc  *doc
}

func (ix *Index) query(text string) *query {
	q := &query{text: text}
	if ix.lex != nil {
		q.doc = ix.lex.analyze(text)
	}
	return q
}

func (ix *Index) score(q *query, it *item) float64 {
	if ix.lex != nil {
		return ix.lex.scoreDocs(q.doc, it.doc)
	}
	return ix.engine.Score(q.text, it.text)
}

// candidate is an item that may reach the threshold, with an upper bound
// of its score.
type candidate struct {
	it    *item
	bound float64
}

// candidates returns the items whose score may reach theta, each with an
// upper bound on its score.
//
// The bound: a query word contributes to the query-side direction of the
// lexical score only through an item word with the same key or a shared
// WordNet concept, i.e. through a posting reached from the word's
// expansion. With c = (1-dirMix)/2, score <= (1-c)*dir(q->item) + c, and
// dir(q->item) <= (weight of the query words reaching the item, plus the
// weight of the words not looked up) / total weight. Common words are not
// looked up as long as their total weight stays below what an item must
// share to reach theta (prefix filtering), so items reached through them
// alone cannot reach theta.
func (ix *Index) candidates(q *query, theta float64) []candidate {
	all := func() []candidate {
		out := make([]candidate, 0, len(ix.byID))
		for _, it := range ix.items {
			if it != nil {
				out = append(out, candidate{it, 1})
			}
		}
		return out
	}
	if ix.lex == nil || len(q.doc.terms) == 0 {
		return all()
	}
	c := (1 - ix.lex.p.dirMix) / 2
	if theta <= c {
		return all()
	}
	need := (theta - c) / (1 - c) * q.doc.total // share an item must reach in the query's weight

	// Expand each indexed query term to the keys it can match, and order the
	// terms by how many items those keys reach, most common first.
	type lookup struct {
		weight float64
		keys   []string
		df     int
	}
	var looks []lookup
	skipped := 0.0
	for _, t := range q.doc.terms {
		if t.stop {
			skipped += t.weight
			continue
		}
		keys := ix.expand(t)
		df := 0
		for _, k := range keys {
			df += len(ix.postings[k])
		}
		looks = append(looks, lookup{t.weight, keys, df})
	}
	sort.SliceStable(looks, func(i, j int) bool { return looks[i].df > looks[j].df })
	first := 0
	for first < len(looks) && skipped+looks[first].weight < need-eps*q.doc.total {
		skipped += looks[first].weight
		first++
	}
	if skipped >= need-eps*q.doc.total {
		return all() // stop words alone could reach theta
	}

	acc := map[int32]float64{}
	last := map[int32]int{}
	var order []int32
	for li := first; li < len(looks); li++ {
		for _, k := range looks[li].keys {
			for _, slot := range ix.postings[k] {
				if ix.items[slot] == nil {
					continue
				}
				if l, ok := last[slot]; ok && l == li {
					continue
				}
				if _, ok := last[slot]; !ok {
					order = append(order, slot)
				}
				last[slot] = li
				acc[slot] += looks[li].weight
			}
		}
	}
	var out []candidate
	for _, slot := range order {
		dir := (acc[slot] + skipped) / q.doc.total
		if dir > 1 {
			dir = 1
		}
		if bound := (1-c)*dir + c; bound >= theta-eps {
			out = append(out, candidate{ix.items[slot], bound})
		}
	}
	return out
}

// expand lists the indexed keys that a query term can match: its own key
// and the keys of indexed words sharing one of its WordNet concepts.
func (ix *Index) expand(t term) []string {
	keys := []string{t.key}
	for _, c := range t.concepts {
		keys = append(keys, ix.vocab[c.id]...)
	}
	sort.Strings(keys)
	return dedupe(keys)
}

func sortMatches(ms []Match) {
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].Score != ms[j].Score {
			return ms[i].Score > ms[j].Score
		}
		return ms[i].ID < ms[j].ID
	})
}

func sortPairs(ps []Pair) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Score != ps[j].Score {
			return ps[i].Score > ps[j].Score
		}
		if ps[i].A != ps[j].A {
			return ps[i].A < ps[j].A
		}
		return ps[i].B < ps[j].B
	})
}
