package playbook

import (
	"maps"
	"runtime"
	"slices"
	"sort"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/internal/parallel"
)

// Matcher finds similar texts. similar.Index (the candidate index)
// and similar.BruteForce both are one.
type Matcher interface {
	Add(id, text string)
	Remove(id string)
	Best(text string, filter func(id string) bool) (similar.Match, bool)
	Above(text string, min float64, filter func(id string) bool) []similar.Match
	Pairs(min float64) []similar.Pair
}

// CategoryMatcher keeps one matcher per category. A lesson is matched
// against its own category first (SPEC: "same category unless none
// exists"), so a query only looks at the candidates of that category
// instead of filtering the candidates of the whole playbook.
type CategoryMatcher struct {
	newMatcher func() Matcher
	text       func(id string) string // the text of a bullet added by words
	pending    map[string]*TermBatch  // bullets added by words, not indexed until their category is asked
	by         map[string]Matcher
	n          map[string]int // bullets per category
	stored     StoredIndexes  // nil: candidate indexes are built on every run
}

// StoredIndexes keeps the candidate index of each category between runs
// (cache.CandidateIndexes keeps them under .curator/.cache). ReadCandidateIndex may
// be called for several categories at once.
type StoredIndexes interface {
	ReadCandidateIndex(category string) []byte
	QueueCandidateIndex(category string, data func() []byte)
}

// storableMatcher is a matcher that can be stored once built from words
// and loaded back for the same words (similar.Index).
type storableMatcher interface {
	Snapshot(key [32]byte, ids []string, v *similar.Vocabulary, terms [][]uint32) []byte
	LoadSnapshot(key [32]byte, ids []string, v *similar.Vocabulary, data []byte) bool
}

// NewCategoryMatcher returns an empty matcher that makes one newMatcher()
// per category.
func NewCategoryMatcher(newMatcher func() Matcher) *CategoryMatcher {
	return &CategoryMatcher{newMatcher: newMatcher, by: map[string]Matcher{}, n: map[string]int{}}
}

// wordsMatcher is a matcher that can index a text by its analysed words
// and read the text only when it scores it (similar.Index).
type wordsMatcher interface {
	AddTerms(id string, v *similar.Vocabulary, terms []uint32)
	AddAllTerms(ids []string, v *similar.Vocabulary, terms [][]uint32)
	SetText(func(id string) string)
}

// Add indexes a bullet's text under its category (a bullet of another
// category is removed from it first: Remove).
func (c *CategoryMatcher) Add(category, id, text string) {
	c.matcher(category).Add(id, text)
	c.n[category]++
}

// AddTerms indexes a bullet by the words the bullet index keeps of it; its
// text is read when the matcher scores it. False: the category's matcher
// cannot (nothing was added).
func (c *CategoryMatcher) AddTerms(category, id string, v *similar.Vocabulary, terms []uint32) bool {
	m, ok := c.matcher(category).(wordsMatcher)
	if !ok || c.text == nil {
		return false
	}
	m.AddTerms(id, v, terms)
	c.n[category]++
	return true
}

// TermBatch is the bullets of one category, given by their words: their
// ids, the words of each (asked once, when the category's candidate index
// is built or its key computed; nil when they cannot be given) and, when
// the caller can name the batch cheaply, Key (zero: the key is computed
// from the words, similar.BatchKey). A stored index loaded under Key holds
// the words itself.
type TermBatch struct {
	IDs   []string
	Vocab *similar.Vocabulary
	Terms func() [][]uint32
	Key   [32]byte
	terms [][]uint32 // Terms' answer, once asked
	asked bool
	// storedTried: the stored index was read (loadStored).
	storedTried bool
}

// words returns Terms' answer, asking once.
func (bt *TermBatch) words() [][]uint32 {
	if !bt.asked {
		bt.terms, bt.asked = bt.Terms(), true
	}
	return bt.terms
}

// key is the batch's key.
func (bt *TermBatch) key() [32]byte {
	if bt.Key == ([32]byte{}) && bt.words() != nil {
		bt.Key = similar.BatchKey(bt.IDs, bt.words())
	}
	return bt.Key
}

// AddAllTerms indexes many bullets of a category as AddTerms does, at once,
// when the category is first asked: a run that curates a few lessons builds
// (or loads) the candidate indexes of their categories only.
func (c *CategoryMatcher) AddAllTerms(category string, bt *TermBatch) bool {
	if _, ok := c.matcher(category).(wordsMatcher); !ok || c.text == nil {
		return false
	}
	if c.pending == nil {
		c.pending = map[string]*TermBatch{}
	}
	c.pending[category] = bt
	c.n[category] += len(bt.IDs)
	return true
}

// matcher returns a category's matcher, with the bullets added by words
// indexed.
func (c *CategoryMatcher) matcher(category string) Matcher {
	m := c.by[category]
	if bt := c.pending[category]; bt != nil && m != nil {
		delete(c.pending, category)
		c.addBatch(category, m, bt)
	}
	if m == nil {
		m = c.newMatcher()
		if w, ok := m.(wordsMatcher); ok && c.text != nil {
			w.SetText(c.text)
		}
		c.by[category] = m
	}
	return m
}

// preparePending indexes, on every core, the bullets added by words of the
// categories not asked for yet (a query of every category asks for all of
// them): each category's stored index is loaded, or its index built from
// the words, as addBatch does, each index on its own. What only addBatch
// can do (indexing by texts when the words cannot be given) is left to
// matcher, and the indexes built are queued to be stored here, one after
// the other.
func (c *CategoryMatcher) preparePending() {
	c.prepare(slices.Sorted(maps.Keys(c.pending)))
}

// prepare is preparePending for the categories cats, the ones a run's
// lessons are matched in (none: nothing is done). A category without
// bullets stands for every one, as in Best.
func (c *CategoryMatcher) prepare(cats []string) {
	if slices.ContainsFunc(cats, func(cat string) bool { return c.n[cat] == 0 }) {
		cats = slices.Sorted(maps.Keys(c.pending))
	}
	if len(c.pending) < 2 || len(cats) < 2 || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	type prep struct {
		category      string
		m             Matcher
		bt            *TermBatch
		loaded, built bool
	}
	var preps []*prep
	for _, cat := range cats {
		if c.pending[cat] == nil || slices.ContainsFunc(preps, func(p *prep) bool { return p.category == cat }) {
			continue
		}
		if m, ok := c.by[cat].(wordsMatcher); ok && c.text != nil {
			preps = append(preps, &prep{category: cat, m: m.(Matcher), bt: c.pending[cat]})
		}
	}
	parallel.For(len(preps), func(i int) {
		p := preps[i]
		if p.loaded = c.loadStored(p.category, p.m, p.bt); p.loaded {
			return
		}
		if terms := p.bt.words(); terms != nil {
			p.m.(wordsMatcher).AddAllTerms(p.bt.IDs, p.bt.Vocab, terms)
			p.built = true
		}
	})
	for _, p := range preps {
		if p.loaded || p.built {
			delete(c.pending, p.category)
		}
		if p.built {
			c.queueStored(p.category, p.m, p.bt)
		}
	}
}

// loadStored loads a category's stored candidate index when it was built
// from the same words by the same engine (once per batch: a batch whose
// stored index did not load is not read again).
func (c *CategoryMatcher) loadStored(category string, m Matcher, bt *TermBatch) bool {
	s, ok := m.(storableMatcher)
	if !ok || c.stored == nil || bt.storedTried {
		return false
	}
	bt.storedTried = true
	data := c.stored.ReadCandidateIndex(category)
	return data != nil && s.LoadSnapshot(bt.key(), bt.IDs, bt.Vocab, data)
}

// queueStored queues the store of a category's candidate index, built from
// bt's words, with the run's caches (unless the run changed the category's
// bullets since: the snapshot is then nil).
func (c *CategoryMatcher) queueStored(category string, m Matcher, bt *TermBatch) {
	if s, ok := m.(storableMatcher); ok && c.stored != nil {
		key, terms := bt.key(), bt.words()
		c.stored.QueueCandidateIndex(category, func() []byte { return s.Snapshot(key, bt.IDs, bt.Vocab, terms) })
	}
}

// addBatch indexes the bullets AddAllTerms was given for a category: the
// stored index is loaded when it was built from the same words by the same
// engine; otherwise the index is built, and stored when the run's caches
// are written unless the run changed the category's bullets since.
func (c *CategoryMatcher) addBatch(category string, m Matcher, bt *TermBatch) {
	if c.loadStored(category, m, bt) {
		return
	}
	terms := bt.words()
	if terms == nil { // the words cannot be given: index the texts
		for _, id := range bt.IDs {
			m.Add(id, c.text(id))
		}
		return
	}
	m.(wordsMatcher).AddAllTerms(bt.IDs, bt.Vocab, terms)
	c.queueStored(category, m, bt)
}

// Forget lets each category's candidate index go of the texts and
// analyses of all but about its share of the keep bullets used last
// (similar.Index.Forget), the share by its number of bullets.
func (c *CategoryMatcher) Forget(keep int) {
	total := 0
	for _, n := range c.n {
		total += n
	}
	for cat, m := range c.by {
		if ix, ok := m.(*similar.Index); ok && total > 0 {
			ix.Forget(keep * c.n[cat] / total)
		}
	}
}

// Remove drops a bullet of a category.
func (c *CategoryMatcher) Remove(category, id string) {
	if c.n[category] > 0 {
		c.matcher(category).Remove(id)
		c.n[category]--
	}
}

func (c *CategoryMatcher) categories() []string {
	out := make([]string, 0, len(c.by))
	for k := range c.by {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Best returns the most similar bullet of a category or, with category ""
// or a category without bullets, of all categories (ties: smaller id). It is
// exact whenever the best score is at least the merge floor, as the
// underlying matchers are.
func (c *CategoryMatcher) Best(text, category string) (similar.Match, bool) {
	if c.n[category] > 0 {
		// The category has bullets: its answer stands, even when the index
		// found no candidate there (all of them are then below the floor).
		return c.matcher(category).Best(text, nil)
	}
	var best similar.Match
	found := false
	for _, cat := range c.categories() {
		m, ok := c.matcher(cat).Best(text, nil)
		if ok && (!found || m.Score > best.Score || (m.Score == best.Score && m.ID < best.ID)) {
			best, found = m, true
		}
	}
	return best, found
}

// Above returns the bullets of every category with a similarity of at
// least min, highest first, then by id.
func (c *CategoryMatcher) Above(text string, min float64) []similar.Match {
	var out []similar.Match
	for _, cat := range c.categories() {
		out = append(out, c.matcher(cat).Above(text, min, nil)...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Top returns bullets of every category with a similarity of at least min
// that accept takes (nil: all), highest first, then by id: at least the
// limit highest, and every bullet that scores as high as the limit-th.
// With candidate indexes (similar.TopOf) the candidates of every category
// are taken from the highest upper bound down, and the search stops when
// limit bullets score above every bound left, so on a large playbook only
// the texts of a few candidates are read. Fewer than limit results: every
// bullet at or above min was returned.
func (c *CategoryMatcher) Top(text string, min float64, limit int, accept func(id string) bool) []similar.Match {
	return c.Search(text)(min, limit, accept)
}

// Search is Top for one text asked at one floor and then at lower ones:
// with candidate indexes the text is analysed once and no bullet is scored
// twice (similar.Search).
func (c *CategoryMatcher) Search(text string) func(min float64, limit int, accept func(id string) bool) []similar.Match {
	c.preparePending()
	var ixs []*similar.Index
	for _, cat := range c.categories() {
		ix, ok := c.matcher(cat).(*similar.Index)
		if !ok {
			return func(min float64, _ int, accept func(id string) bool) []similar.Match {
				var out []similar.Match
				for _, m := range c.Above(text, min) {
					if accept == nil || accept(m.ID) {
						out = append(out, m)
					}
				}
				return out
			}
		}
		ixs = append(ixs, ix)
	}
	return similar.NewSearch(ixs, text).Top
}

// Pairs returns the pairs of bullets of the same category with a
// similarity of at least min, highest first, then by ids.
func (c *CategoryMatcher) Pairs(min float64) []similar.Pair {
	var out []similar.Pair
	for _, cat := range c.categories() {
		out = append(out, c.matcher(cat).Pairs(min)...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if out[i].A != out[j].A {
			return out[i].A < out[j].A
		}
		return out[i].B < out[j].B
	})
	return out
}
