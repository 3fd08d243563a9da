package similar

// BruteForce has Index's methods but scores the query against every item.
// It is the reference that tests and benchmarks hold Index to. Texts are
// analysed once when added, as in Index, so timings compare like with like.
type BruteForce struct {
	ix *Index
}

// NewBruteForce returns an empty brute-force matcher for e.
func NewBruteForce(e Engine) *BruteForce { return &BruteForce{ix: NewIndex(e)} }

// Add stores text under id, replacing what id held before.
func (b *BruteForce) Add(id, text string) { b.ix.Add(id, text) }

// AddTerms stores id by its words (see Index.AddTerms).
func (b *BruteForce) AddTerms(id string, v *Vocabulary, terms []uint32) { b.ix.AddTerms(id, v, terms) }

// AddAllTerms stores many items by their words (see Index.AddAllTerms).
func (b *BruteForce) AddAllTerms(ids []string, v *Vocabulary, terms [][]uint32) {
	b.ix.AddAllTerms(ids, v, terms)
}

// SetText sets how the text of an item added by words is found.
func (b *BruteForce) SetText(f func(id string) string) { b.ix.SetText(f) }

// Remove drops id; unknown ids are ignored.
func (b *BruteForce) Remove(id string) { b.ix.Remove(id) }

// Len is the number of items.
func (b *BruteForce) Len() int { return b.ix.Len() }

// Best returns the most similar item that filter accepts; ties go to the
// smaller id. ok is false when no item is accepted.
func (b *BruteForce) Best(text string, filter func(id string) bool) (Match, bool) {
	var best Match
	found := false
	for _, m := range b.all(text, filter) {
		if !found || m.Score > best.Score || (m.Score == best.Score && m.ID < best.ID) {
			best, found = m, true
		}
	}
	return best, found
}

// Above returns every accepted item with a score of at least min (within
// 1e-9), highest first, then by id.
func (b *BruteForce) Above(text string, min float64, filter func(id string) bool) []Match {
	var out []Match
	for _, m := range b.all(text, filter) {
		if m.Score >= min-eps {
			out = append(out, m)
		}
	}
	sortMatches(out)
	return out
}

// Pairs returns every pair of items with a score of at least min, comparing
// all n² pairs.
func (b *BruteForce) Pairs(min float64) []Pair {
	items := b.ix.sortedItems()
	var out []Pair
	for i, x := range items {
		q := b.ix.query(b.ix.textOfItem(x))
		for _, y := range items[i+1:] {
			if s := b.ix.score(q, y); s >= min-eps {
				out = append(out, Pair{x.id, y.id, s})
			}
		}
	}
	sortPairs(out)
	return out
}

func (b *BruteForce) all(text string, filter func(id string) bool) []Match {
	q := b.ix.query(text)
	var out []Match
	for _, it := range b.ix.items {
		if it != nil && (filter == nil || filter(it.id)) {
			out = append(out, Match{it.id, b.ix.score(q, it)})
		}
	}
	return out
}
