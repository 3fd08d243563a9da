package similar

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
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
// An Index is not safe for concurrent use. Items added with AddTerms hold
// only their words, and are scored from them and their negation marks
// (marks.go): their texts are asked from the function SetText gave only
// when a word is not known (an index loaded for a word table that lost
// it, or marks that do not read).
type Index struct {
	engine Engine
	lex    *Lexical // nil: not a lexical engine, scan everything
	floor  float64
	textOf func(id string) string

	items    []*item             // by slot; nil once removed
	byID     map[string]int32    // id -> slot
	words    []wordRef           // the distinct analysed words of the items
	wordOf   map[*wordInfo]int32 // analysed word -> index in words
	vocabOf  []int32             // Vocabulary index -> index in words (-1: not yet, marksWord: a text's marks)
	keyIDs   map[string]int32    // word key -> dense id
	postings [][]int32           // key id -> slots of the items holding it
	vocab    map[int32][]keyDist // concept -> indexed key ids holding it, with hypernym steps
	seen     map[[2]string]bool  // (key, lemma) pairs already in vocab
	removed  int
	// expanded keeps each query word's keys (expand) while Pairs runs:
	// every item is a query then, and the index does not change.
	expanded  map[*wordInfo][]keySim
	expansion expansionScratch
	// pairs is what Pairs keeps while it runs (nil otherwise).
	pairs *pairsRun
	// infos is the analysis of each of words; for a loaded index's words
	// nil until asked (wordInfoOf), then analysed from loadedVocab, where
	// vocabAt finds them.
	infos       []*wordInfo
	loadedVocab *Vocabulary
	vocabAt     []int32
	// loaded holds, for an index loaded by LoadSnapshot and not changed
	// since, what byID, keyIDs and seen are built from when it first
	// changes: a query never builds those maps.
	loaded *loadedTables

	// Per-query scratch space, by slot (reused: an Index is single-threaded).
	gen uint32
	// mark is, by slot, the query (gen) that last reached the item in the
	// high 32 bits, and the query word whose features reached it last in
	// the low 32: one load tells a new item, a new word and a word seen.
	mark      []uint64
	acc       []float64
	exactAcc  []float64  // by slot: the weight of the looked-up query words whose own key the item holds
	matchable []float64  // by slot: what the item's indexed words can match of the query at most (reachedWords)
	sides     []itemSide // by slot, made when a query first bounds the item (not a query's: kept)
	// storedSides are, by slot, the stop words' weight and the total
	// weight of the items of a loaded index, as its snapshot stored them
	// (read in place): sideBound takes them instead of sides, so a
	// loaded index bounds by side from its first query.
	storedStops, storedTotals []float64
	// keyWeight is, by key id, the weight of the heaviest indexed word of
	// that key (keyTables).
	keyWeight []float64
	// queries counts the queries of candidates: the first bounds every
	// item by its words, the later ones by sides first (boundsBySide).
	queries int
	reach   []reachOf // by key id
	// stopKey says, by key id, whether some item holds the key as a stop
	// word (which postings leave out: "avoid" is a stop word, and the key
	// of "avoiding" too). keyTablesN words of words are counted in it and
	// in keyWeight.
	stopKey    []bool
	keyTablesN int
	scratch    queryScratch
	// analysed are the items added by words that were given an analysis
	// (item.more) since, each once: what Forget may let go of.
	analysed []*item
}

// queryScratch holds the slices a query fills, kept for the next query: a
// run that matches every item (Pairs) would otherwise allocate them anew
// each time.
type queryScratch struct {
	// cands and heap are Top's: its candidates, and its heap of them,
	// whose contents are garbage once it returns (100,000 of each for a
	// query that reaches every item: a server would collect them each
	// time).
	cands   []candidate
	heap    boundHeap
	feats   []feature
	byDF    []uint64
	look    []feature
	skipMax []float64
	own     []int32 // per query word: the id of its own key, -1 when no item holds it
	start   []int
	order   []int32
	reached []int32 // the keys the query reaches (setReach), each once
}

// reachOf is how well the current query can match a key: up to w, when
// gen is the query's generation; exact is the weight of the query word
// whose key it is (0: none).
type reachOf struct {
	gen   uint32
	w     float64
	exact float64
}

type keyDist struct {
	key  int32
	dist int8
}

// item is an indexed item. What only a scored item needs is apart (text):
// a loaded index of 100,000 items makes them all at once, and a query
// scores few.
type item struct {
	id    string
	terms []int32 // index in Index.words of each of doc.terms
	total float64 // doc.total
	more  *itemText
	// marks are the negation marks of an item added by its words, as its
	// words hold them ("": no negation), read when the item is first
	// bounded or scored: a loaded index of 100,000 items holds tens of
	// thousands.
	marks string
}

// itemSide is what an item's side of a score is bounded with besides the
// posting lists (sideBound): the weight of its stop words (not indexed)
// and its total weight, kept by slot so that most items are bounded
// without being read. The zero value is "not known yet".
type itemSide struct {
	stop, total float64
}

// itemText is an item's text and analyses; nil for an item added by terms
// until one is asked (see Index.analysis).
type itemText struct {
	used int // the index's queries when the item was last asked for its text or analysis
	text string
	lazy bool // text and doc are not known yet: ask textOf
	doc  *doc // nil until the item is first bounded or scored, for items added by terms
}

// analysis is the item's text and analyses, made (text not known yet)
// for an item added by terms, and marked used by the current query.
func (ix *Index) analysis(it *item) *itemText {
	if it.more == nil {
		it.more = &itemText{lazy: true}
		ix.analysed = append(ix.analysed, it)
	}
	it.more.used = ix.queries
	return it.more
}

// wordRef is one analysed word of an index: its key id and weight.
type wordRef struct {
	key    int32
	weight float64
	stop   bool // stop words are not in the postings
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
	ix.items, ix.removed, ix.loaded, ix.sides = nil, 0, nil, nil
	ix.storedStops, ix.storedTotals = nil, nil
	ix.byID = map[string]int32{}
	ix.words, ix.wordOf, ix.vocabOf = nil, map[*wordInfo]int32{}, nil
	ix.stopKey, ix.keyWeight, ix.keyTablesN = nil, nil, 0
	ix.infos, ix.loadedVocab, ix.vocabAt = nil, nil, nil
	ix.keyIDs = map[string]int32{}
	ix.postings = nil
	ix.vocab = map[int32][]keyDist{}
	ix.seen = map[[2]string]bool{}
	ix.analysed = nil
}

// Len is the number of items.
func (ix *Index) Len() int {
	if ix.loaded != nil {
		return len(ix.items)
	}
	return len(ix.byID)
}

// Add indexes text under id, replacing what id held before.
func (ix *Index) Add(id, text string) {
	it := &item{id: id, more: &itemText{text: text}}
	if ix.lex != nil {
		it.more.doc = ix.lex.analyze(text)
	}
	ix.add(it)
}

// Vocabulary is a table of words (as Lexical.Words returns them), each
// analysed once, the first time an index takes it, so that AddTerms
// indexes a text by indices into it. A run that indexes a few categories
// analyses only their words.
type Vocabulary struct {
	lex   *Lexical
	words []string
	infos []atomic.Pointer[wordInfo] // nil until analysed
}

// Vocabulary returns the table of words, not analysed yet.
func (l *Lexical) Vocabulary(words []string) *Vocabulary {
	return &Vocabulary{lex: l, words: words, infos: make([]atomic.Pointer[wordInfo], len(words))}
}

// info is the analysis of word t. The indexes of several categories may
// ask for it at once: the first analysis stored is the one every index
// gets.
func (v *Vocabulary) info(t uint32) *wordInfo {
	if wi := v.infos[t].Load(); wi != nil {
		return wi
	}
	// Not through the cache of analysed words: a table of 100,000 words
	// would fill it for nothing (each is analysed once here).
	w := v.words[t]
	v.infos[t].CompareAndSwap(nil, v.lex.newWordInfo(word{text: w, negation: negationWords[w]}))
	return v.infos[t].Load()
}

// AddTerms indexes id by its words, given as indices into v (the words
// Lexical.Words returned for its text), without the text: the item is
// bounded and scored from its words and negation marks, and its text asked
// from SetText's function only when they do not read. One index takes the
// terms of one vocabulary. With an engine that is not lexical the text is
// asked at once.
func (ix *Index) AddTerms(id string, v *Vocabulary, terms []uint32) {
	if ix.lex == nil {
		ix.Add(id, ix.textOf(id))
		return
	}
	ix.materialize()
	ix.growVocabOf(len(v.infos))
	it := &item{id: id}
	it.terms, it.marks = ix.itemTerms(v, terms, make([]int32, len(terms)))
	ix.add(it)
}

// marksWord stands in vocabOf for a word of the table that is a text's
// marks: not a word of the index.
const marksWord = -2

// itemTerms turns an item's words, given as indices into v, into indices
// into the index's words (in out, as long as terms), adding the words it
// does not hold yet, and takes the item's negation marks out of them.
func (ix *Index) itemTerms(v *Vocabulary, terms []uint32, out []int32) ([]int32, string) {
	n, marks, twice := 0, -1, false
	for _, t := range terms {
		w := ix.vocabOf[t]
		if w == -1 {
			if isMarks(v.words[t]) {
				w = marksWord
			} else {
				w = ix.newWord(v.info(t))
			}
			ix.vocabOf[t] = w
		}
		if w == marksWord {
			twice = twice || marks >= 0 // not Words' answer
			marks = int(t)
			continue
		}
		out[n] = w
		n++
	}
	switch {
	case twice:
		return out[:n], badMarks
	case marks < 0:
		return out[:n], ""
	}
	return out[:n], v.words[marks]
}

// AddAllTerms adds many items by their terms at once, as AddTerms does one
// by one, with a few large allocations instead of several per item: a
// playbook of 100,000 bullets is indexed this way on every run.
func (ix *Index) AddAllTerms(ids []string, v *Vocabulary, terms [][]uint32) {
	if ix.lex == nil {
		for _, id := range ids {
			ix.Add(id, ix.textOf(id))
		}
		return
	}
	ix.materialize()
	ix.growVocabOf(len(v.infos))
	n := 0
	for _, t := range terms {
		n += len(t)
	}
	ix.reserve(v, terms)
	flat := make([]int32, n)
	items := make([]item, len(ids))
	for i, id := range ids {
		ts, marks := ix.itemTerms(v, terms[i], flat[:len(terms[i]):len(terms[i])])
		flat = flat[len(terms[i]):]
		items[i] = item{id: id, terms: ts, marks: marks}
	}
	// Size each new posting list exactly, from one array.
	counts := make([]int32, len(ix.postings))
	for i := range items {
		for _, w := range items[i].terms {
			if ref := ix.words[w]; !ref.stop && len(ix.postings[ref.key]) == 0 {
				counts[ref.key]++
			}
		}
	}
	total := 0
	for _, c := range counts {
		total += int(c)
	}
	backing := make([]int32, total)
	for key, c := range counts {
		if c > 0 {
			ix.postings[key] = backing[:0:c]
			backing = backing[c:]
		}
	}
	if len(ix.byID) == 0 {
		ix.byID = make(map[string]int32, len(ids))
	}
	ix.items = slices.Grow(ix.items, len(ids))
	for i := range items {
		ix.add(&items[i])
	}
}

// reserve sizes the word tables for the words of terms that the index
// does not hold yet, so that a large batch does not grow them step by step.
// The maps are sized only while the index is empty (Go cannot grow a map).
func (ix *Index) reserve(v *Vocabulary, terms [][]uint32) {
	mark := make([]bool, len(v.infos))
	fresh := 0
	for _, ts := range terms {
		for _, t := range ts {
			if ix.vocabOf[t] == -1 && !mark[t] && !isMarks(v.words[t]) {
				mark[t] = true
				fresh++
			}
		}
	}
	ix.words = slices.Grow(ix.words, fresh)
	ix.infos = slices.Grow(ix.infos, fresh)
	if len(ix.words) == 0 && len(ix.keyIDs) == 0 {
		ix.keyIDs = make(map[string]int32, fresh)
		ix.postings = slices.Grow(ix.postings, fresh)
	}
}

// growVocabOf makes vocabOf n long, the new entries -1 (not yet), at once:
// the word table holds every category's words.
func (ix *Index) growVocabOf(n int) {
	if k := len(ix.vocabOf); k < n {
		ix.vocabOf = slices.Grow(ix.vocabOf, n-k)[:n]
		for i := k; i < n; i++ {
			ix.vocabOf[i] = -1
		}
	}
}

// SetText sets how the text of an item added by terms is found.
func (ix *Index) SetText(f func(id string) string) { ix.textOf = f }

// wordIndex returns the index of an analysed word in ix.words, adding it
// (with its key and WordNet concepts) when new.
func (ix *Index) wordIndex(t *wordInfo) int32 {
	if w, ok := ix.wordOf[t]; ok {
		return w
	}
	w := ix.newWord(t)
	ix.wordOf[t] = w
	return w
}

// newWord adds an analysed word to ix.words. The words of a Vocabulary
// are added this way directly: vocabOf already finds them again.
func (ix *Index) newWord(t *wordInfo) int32 {
	ix.materialize()
	id, ok := ix.keyIDs[t.key]
	if !ok {
		id = int32(len(ix.postings))
		ix.keyIDs[t.key] = id
		ix.postings = append(ix.postings, nil)
	}
	if len(t.concepts) > 0 && !t.stop {
		if k := [2]string{t.key, t.lemma}; !ix.seen[k] {
			ix.seen[k] = true
			for _, c := range t.concepts {
				ix.vocab[c.id] = append(ix.vocab[c.id], keyDist{id, c.dist})
			}
		}
	}
	if t.vec >= 0 {
		vc := vectorConcept(t.vec)
		if !slices.Contains(ix.vocab[vc], keyDist{id, 0}) {
			ix.vocab[vc] = append(ix.vocab[vc], keyDist{id, 0})
		}
	}
	w := int32(len(ix.words))
	ix.words = append(ix.words, wordRef{id, t.weight, t.stop})
	ix.infos = append(ix.infos, t)
	return w
}

// add indexes an item by its terms (set for items added by terms, made
// from its doc otherwise).
func (ix *Index) add(it *item) {
	ix.materialize()
	ix.Remove(it.id)
	slot := int32(len(ix.items))
	ix.items = append(ix.items, it)
	ix.byID[it.id] = slot
	if ix.lex == nil {
		return
	}
	if it.terms == nil {
		d := it.more.doc // added by text
		it.terms = make([]int32, len(d.terms))
		for i := range d.terms {
			it.terms[i] = ix.wordIndex(d.terms[i].wordInfo)
		}
	}
	for _, w := range it.terms {
		ref := ix.words[w]
		it.total += ref.weight
		if ref.stop {
			continue // stop words match only themselves and weigh little: not indexed
		}
		ix.postings[ref.key] = append(ix.postings[ref.key], slot)
	}
}

// textOfItem returns an item's text, asking for it when it was added by
// words.
func (ix *Index) textOfItem(it *item) string {
	t := ix.analysis(it)
	if t.lazy {
		t.text, t.lazy = ix.textOf(it.id), false
	}
	return t.text
}

// Remove drops id from the index; unknown ids are ignored.
func (ix *Index) Remove(id string) {
	ix.materialize()
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
		ix.Add(it.id, ix.textOfItem(it))
	}
	ix.analysed = nil // the items were added again by their texts
}

// Best returns the most similar item that filter accepts (nil accepts all);
// ties go to the smaller id. The answer is exact whenever the best score is
// at least MergeFloor; below it, the match is the best among the items the
// index looked at (ok is false when it looked at none).
func (ix *Index) Best(text string, filter func(id string) bool) (Match, bool) {
	q := ix.query(text)
	cands := ix.candidates(q, ix.floor-eps, boundSentence)
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
	return ix.above(ix.query(text), min, filter)
}

func (ix *Index) above(q *query, min float64, filter func(id string) bool) []Match {
	var out []Match
	for _, c := range ix.candidates(q, min-eps, boundSentence) {
		if filter != nil && !filter(c.it.id) {
			continue
		}
		if ix.lex == nil {
			if s := ix.score(q, c.it); s >= min-eps {
				out = append(out, Match{c.it.id, s})
			}
			continue
		}
		d := ix.docOf(c.it)
		if ix.cappedBelow(q, d, min) {
			continue
		}
		if s := q.score(ix.lex, d); s >= min-eps {
			out = append(out, Match{c.it.id, s})
		}
	}
	sortMatches(out)
	return out
}

// Candidate is an item that may reach a similarity, with an upper bound of
// its score; Score computes the score (reading the item's text).
type Candidate struct {
	ID    string
	Bound float64
	score func() float64
}

// Score is the candidate's similarity to the text it was found for.
func (c Candidate) Score() float64 { return c.score() }

// Candidates returns every item whose score may reach min (within 1e-9),
// each with an upper bound of its score, unsorted and not scored yet: an
// item left out scores below min.
func (ix *Index) Candidates(text string, min float64) []Candidate {
	q := ix.query(text)
	cs := ix.candidates(q, min-eps, boundSentence)
	out := make([]Candidate, len(cs))
	for i, c := range cs {
		it := c.it
		out[i] = Candidate{ID: it.id, Bound: c.bound, score: func() float64 { return ix.score(q, it) }}
	}
	return out
}

// Pairs returns every pair of items with a score of at least min, sorted by
// score, highest first, then by ids. Each item is matched through the index
// against the items with larger ids, never against all n² pairs.
func (ix *Index) Pairs(min float64) []Pair {
	ix.expanded, ix.pairs = map[*wordInfo][]keySim{}, newPairsRun(ix)
	defer func() { ix.expanded, ix.pairs = nil, nil }()
	var out []Pair
	var slots []int32
	for slot, it := range ix.items {
		if it != nil {
			slots = append(slots, int32(slot))
		}
	}
	sort.Slice(slots, func(i, j int) bool { return ix.items[slots[i]].id < ix.items[slots[j]].id })
	for _, slot := range slots {
		it := ix.items[slot]
		a := it.id
		for _, m := range ix.above(ix.itemQuery(it), min, func(id string) bool { return id > a }) {
			out = append(out, Pair{a, m.ID, m.Score})
		}
		// Later items need not find it: its pairs with them are found.
		ix.pairs.queried[slot] = true
	}
	sortPairs(out)
	return out
}

// itemQuery is an item asked as a query: its analysis, made from its words
// when it was added by them.
func (ix *Index) itemQuery(it *item) *query {
	if ix.lex != nil {
		if d := ix.itemWords(it); d != nil {
			return &query{doc: d}
		}
	}
	return ix.query(ix.textOfItem(it))
}

func (ix *Index) sortedItems() []*item {
	live := make([]*item, 0, ix.Len())
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
	// matches is the query's side of the meaning matches, made when it
	// is first scored against an item (the lexical engine).
	matches     *queryMatches
	matchesOnce sync.Once
}

// score is the lexical engine's score of the query against d.
func (q *query) score(l *Lexical, d *doc) float64 {
	q.matchesOnce.Do(func() { q.matches = newQueryMatches(q.doc) })
	return l.scoreWith(q.matches, q.doc, d)
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
		return q.score(ix.lex, ix.docOf(it))
	}
	return ix.engine.Score(q.text, ix.textOfItem(it))
}

// docOf is an item's analysed text (lexical engine). An item added by its
// words has it made from them (itemWords) and kept. The analysis of a text
// read is kept for the next query, except while Pairs runs: every item is
// then scored against few others, and keeping all their analyses would
// hold them all in memory at once.
func (ix *Index) docOf(it *item) *doc {
	t := ix.analysis(it)
	if t.doc != nil {
		return t.doc
	}
	if d := ix.itemWords(it); d != nil {
		return d
	}
	d := ix.lex.analyze(ix.textOfItem(it))
	if ix.pairs == nil {
		t.doc = d
	}
	return d
}

// cappedBelow reports whether the lexical engine caps the score of an item
// (analysed as d) below min because the texts differ by a number or a negation: the cap is
// known before the words are aligned, so such an item is not scored.
func (ix *Index) cappedBelow(q *query, d *doc, min float64) bool {
	l := ix.lex
	if l.p.noCap || l.p.capBase+l.p.capSlope >= min-eps {
		return false
	}
	return len(q.doc.terms) > 0 && len(d.terms) > 0 && conflict(q.doc, d)
}

// candidate is an item that may reach the threshold, with an upper bound
// of its score.
type candidate struct {
	it    *item
	bound float64
}

// boundStage is how far a candidate's bound is worked out: from the words
// the query and the item share, then lowered by the sentence check.
type boundStage int8

const (
	boundWords boundStage = iota
	boundSentence
)

// feature is one way a query word can match an item word: through the
// item word's key, with at most sim similarity.
type feature struct {
	term   int     // index in the query's terms
	key    int32   // key id
	weight float64 // the query word's weight times sim
	df     int     // items holding key
}

// byTerm returns the features that order lists (in its low 32 bits) by
// query word (a counting sort: a query has a few dozen words and may have
// thousands of features), each word's heaviest first, in their order in
// order when equal: the first of a word's features to reach an item is the
// one it counts.
func (sc *queryScratch) byTerm(fs []feature, order []uint64, terms int) []feature {
	start := slices.Grow(sc.start[:0], terms+1)[:terms+1]
	clear(start)
	sc.start = start
	for _, o := range order {
		start[fs[uint32(o)].term+1]++
	}
	for i := 1; i <= terms; i++ {
		start[i] += start[i-1]
	}
	out := slices.Grow(sc.look[:0], len(order))[:len(order)]
	sc.look = out
	for _, o := range order {
		f := fs[uint32(o)]
		out[start[f.term]] = f
		start[f.term]++
	}
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].term == out[i].term {
			j++
		}
		slices.SortStableFunc(out[i:j], func(a, b feature) int { return cmp.Compare(b.weight, a.weight) })
		i = j
	}
	return out
}

// candidates returns the items whose score may reach theta, each with an
// upper bound on its score, worked out up to a stage (the later, the
// tighter and the dearer): Top lowers the bounds of the few candidates it
// comes to by the sentence check, the others ask for them all.
//
// The bound: a query word t contributes weight(t)*sim(t,u) to the query-side
// direction through its best item word u, and sim(t,u) is at most the
// feature weight of (t, u.key): 1 for its own key, the concept similarity
// for keys of words sharing a WordNet concept, 0 otherwise. So for an item
// reached by no looked-up feature, dir(q->item) <= (sum of the features not
// looked up) / total weight. Features with the longest posting lists are
// not looked up while that sum stays below what an item must share to
// reach theta (prefix filtering): items reached only through them cannot
// reach theta. With c = (1-dirMix)/2, score <= (1-c)*dir(q->item) + c;
// and as the score lowers matches by meaning only by meaningK, the part of
// dir(q->item) that is exact (query words whose own key the item holds:
// known for the looked-up own keys, assumed for the others) bounds it
// further: score <= (1-c)*((1-k)*dir + k*exact) + c.
// The items found are then bounded from both sides (the score is monotone
// in both directions): dir(q->item) by the best looked-up feature per query
// word plus everything not looked up, dir(item->q) by the best feature
// reaching each of the item's words.
func (ix *Index) candidates(q *query, theta float64, upto boundStage) []candidate {
	return ix.candidatesInto(nil, q, theta, upto)
}

// candidatesInto is candidates appended to out[:0] (sized anew when it is
// short).
func (ix *Index) candidatesInto(out []candidate, q *query, theta float64, upto boundStage) []candidate {
	all := func() []candidate {
		out := slices.Grow(out[:0], ix.Len())
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
	m := ix.lex.p.dirMix
	c := (1 - m) / 2
	// At or below c the query side alone rules no item out: every item is
	// bounded from both sides instead (scan), which reads each item's
	// words but not its text.
	scan := theta <= c
	total := q.doc.total
	need := (theta-c)/(1-c)*total - eps*total // share an item must reach in the query's weight

	if ix.gen++; ix.gen == 0 {
		// Wrapped: no item or key may look reached by this query.
		clear(ix.mark)
		for i := range ix.reach {
			ix.reach[i].gen = 0
		}
		ix.gen = 1
	}
	if ix.pairs == nil {
		ix.queries++
	}
	ix.grow()
	bySide := ix.boundsBySide()
	sc := &ix.scratch
	sc.reached = sc.reached[:0]
	feats := sc.feats[:0]
	skipMax := slices.Grow(sc.skipMax[:0], len(q.doc.terms))[:len(q.doc.terms)] // per query word: best feature not looked up
	clear(skipMax)
	own := slices.Grow(sc.own[:0], len(q.doc.terms))[:len(q.doc.terms)]
	sc.own = own
	exactElsewhere := 0.0 // the query words whose own key items may hold as a stop word
	for ti, t := range q.doc.terms {
		own[ti] = -1
		id, ok := ix.keyID(t.key)
		if ok {
			ix.setReach(id, 1)
			ix.reach[id].exact = t.weight
			own[ti] = id
		}
		if t.stop {
			skipMax[ti] = t.weight // stop words are not indexed: never looked up
			continue
		}
		if ok && ix.heldAsStop(id) {
			// Items holding the key as a stop word are not in its
			// postings: the word counts as found in every item, and its
			// own key as not looked up.
			skipMax[ti], own[ti] = t.weight, -1
			exactElsewhere += t.weight
		}
		for _, f := range ix.queryExpansion(q, ti) {
			ix.setReach(f.key, f.weight)
			feats = append(feats, feature{ti, f.key, t.weight * f.weight, len(ix.postings[f.key])})
		}
	}
	sc.feats = feats
	// Leave out the features with the longest posting lists while the
	// query-side share they could add (the best per query word) stays
	// below need. They are taken by posting length, longest first, ties in
	// the order found: one key per feature packs both, and sorts faster
	// than the features.
	byDF := slices.Grow(sc.byDF[:0], len(feats))
	for i, f := range feats {
		byDF = append(byDF, uint64(math.MaxUint32-uint32(f.df))<<32|uint64(i))
	}
	sc.byDF, sc.skipMax = byDF, skipMax
	slices.Sort(byDF)
	base := 0.0
	for _, v := range skipMax {
		base += v
	}
	first := 0
	for ; !scan && first < len(byDF); first++ {
		f := feats[uint32(byDF[first])]
		extra := math.Max(0, f.weight-skipMax[f.term])
		if base+extra >= need {
			break
		}
		base += extra
		skipMax[f.term] += extra
	}
	if !scan && base >= need {
		// Stop words alone could reach theta: look up every feature and
		// bound every item.
		scan, first, base = true, 0, 0
		for ti, t := range q.doc.terms {
			if id, ok := ix.keyID(t.key); !t.stop && (!ok || !ix.heldAsStop(id)) {
				skipMax[ti] = 0
			}
			base += skipMax[ti]
		}
	}
	look := sc.byTerm(feats, byDF[first:], len(q.doc.terms))
	// exact0: the query words whose own key may be in an item without the
	// postings saying so (stop words, and words whose own key is not
	// looked up); the looked-up ones are counted per item in exactAcc.
	exact0 := exactElsewhere
	for ti, t := range q.doc.terms {
		if own[ti] >= 0 {
			exact0 += t.weight
		}
	}
	for _, f := range look {
		if f.key == own[f.term] {
			exact0 -= q.doc.terms[f.term].weight
		}
	}
	k := ix.lex.p.meaningK

	// acc[slot]: what the looked-up features add to base for that item.
	order := sc.order[:0]
	if cap(order) < len(ix.items) {
		order = make([]int32, 0, len(ix.items)) // filled only as far as the query reaches
	}
	defer func() { sc.order = order }()
	// A word's features come heaviest first (byTerm): the first to reach
	// an item is the most the word adds to it.
	holes := ix.removed > 0 // removed items' slots are nil until the index compacts
	gen := uint64(ix.gen) << 32
	mark, acc, exactAcc := ix.mark, ix.acc, ix.exactAcc
	for _, f := range look {
		gain := max(f.weight-skipMax[f.term], 0)
		exact := f.key == own[f.term]
		if gain <= 0 && !exact {
			continue
		}
		word := gen | uint64(uint32(f.term))
		exactW := q.doc.terms[f.term].weight
		for _, slot := range ix.postings[f.key] {
			if holes && ix.items[slot] == nil || ix.pairs != nil && ix.pairs.queried[slot] {
				continue
			}
			switch m := mark[slot]; {
			case m&^math.MaxUint32 != gen:
				mark[slot], acc[slot], exactAcc[slot] = word, gain, 0
				order = append(order, slot)
			case m != word:
				mark[slot] = word
				acc[slot] += gain
			}
			if exact {
				exactAcc[slot] += exactW
			}
		}
	}

	if scan {
		// Every item, those no looked-up feature reached too (their query
		// side is base alone).
		order = order[:0]
		for slot, it := range ix.items {
			if it == nil || (ix.pairs != nil && ix.pairs.queried[slot]) {
				continue
			}
			if ix.mark[slot]&^math.MaxUint32 != gen {
				ix.mark[slot] = gen | math.MaxUint32
				ix.acc[slot], ix.exactAcc[slot] = 0, 0
			}
			order = append(order, int32(slot))
		}
	}
	if bySide {
		ix.reachedWords(order)
	}
	if cap(out) < len(order) {
		out = make([]candidate, 0, len(order)) // the pages it does not fill are never touched
	}
	out = out[:0]
	for _, slot := range order {
		it := ix.items[slot]
		a := math.Min(1, (ix.acc[slot]+base)/total)
		// The bound of wordsBound with the item's side at its most (1),
		// lowered as the score lowers matches by meaning only.
		aExact := math.Min(a, (ix.exactAcc[slot]+exact0)/total)
		if (1-c)*((1-k)*a+k*aExact)+c < theta-eps {
			continue
		}
		if ix.pairs != nil && ix.pairs.outOfReach(ix, slot, a, m, theta) {
			continue
		}
		if bySide && ix.lex.mix(a, ix.sideBound(it, slot)) < theta-eps {
			continue
		}
		bound := ix.wordsBound(it, a, total)
		if upto == boundSentence && bound >= theta-eps {
			bound = ix.sentenceBound(q, it, bound)
		}
		if bound >= theta-eps {
			out = append(out, candidate{it, bound})
		}
	}
	return out
}

// boundsBySide reports whether candidates bounds an item's side by
// sideBound before its words: from an index's second query on (a server,
// a run that matches many lessons), or from the first when its snapshot
// stored the sides. A command that asks one query of a built index would
// only pay for the table of sides, and the pass over the posting lists.
func (ix *Index) boundsBySide() bool {
	return (ix.queries > 1 || ix.storedStops != nil) && ix.pairs == nil
}

// reachedWords sums, for each item the query reached (order), what its
// indexed words whose key the query reaches can match at most: for each
// such key, the heaviest indexed word of that key times how well the
// query reaches it (matchable). It walks the postings of every reached key,
// those not looked up too; an item holds a key once (its words are unique
// by key) and is in the key's postings once. It is a pass over posting
// lists that bounds most items without reading their words (sideBound).
func (ix *Index) reachedWords(order []int32) {
	for _, slot := range order {
		ix.matchable[slot] = 0
	}
	ix.keyTables()
	weights, mark, matchable := ix.keyWeight, ix.mark, ix.matchable
	gen := uint64(ix.gen) << 32
	for _, key := range ix.scratch.reached {
		w := weights[key] * ix.reach[key].w
		for _, slot := range ix.postings[key] {
			if mark[slot]&^math.MaxUint32 == gen {
				matchable[slot] += w
			}
		}
	}
}

// keyTables brings stopKey and keyWeight up to date with the words added
// since they were last.
func (ix *Index) keyTables() {
	if ix.keyTablesN > len(ix.words) {
		ix.stopKey, ix.keyWeight, ix.keyTablesN = nil, nil, 0
	}
	if n := len(ix.postings); len(ix.keyWeight) < n {
		ix.keyWeight = append(ix.keyWeight, make([]float64, n-len(ix.keyWeight))...)
	}
	for _, w := range ix.words[ix.keyTablesN:] {
		if !w.stop {
			ix.keyWeight[w.key] = max(ix.keyWeight[w.key], w.weight)
			continue
		}
		if int(w.key) >= len(ix.stopKey) {
			ix.stopKey = append(ix.stopKey, make([]bool, int(w.key)+1-len(ix.stopKey))...)
		}
		ix.stopKey[w.key] = true
	}
	ix.keyTablesN = len(ix.words)
}

// sideBound is an upper bound of an item's side of the last query's score
// (the share of its weight that query words can match, b of wordsBound):
// what its reached indexed words can match (reachedWords) and all its
// stop words. It reads the item's words only the first time.
func (ix *Index) sideBound(it *item, slot int32) float64 {
	if int(slot) < len(ix.storedStops) {
		if total := ix.storedTotals[slot]; total > 0 {
			return math.Min(1, (ix.matchable[slot]+ix.storedStops[slot])/total)
		}
		return 1
	}
	side := &ix.sides[slot]
	if side.total <= 0 {
		if it.total <= 0 {
			return 1
		}
		side.total, side.stop = it.total, ix.stopWeight(it)
	}
	return math.Min(1, (ix.matchable[slot]+side.stop)/side.total)
}

// stopWeight is the weight of an item's stop words.
func (ix *Index) stopWeight(it *item) float64 {
	stop := 0.0
	for _, w := range it.terms {
		if ref := ix.words[w]; ref.stop {
			stop += ref.weight
		}
	}
	return stop
}

// wordsBound is the bound of an item whose query-side share is a, of the
// query's total weight total (see candidates): the item's side is bounded
// by how well the query's words reach each of its words, and both sides
// lowered as the score lowers matches by meaning only, from the exact
// matches among them (aExact and bExact: the same keys in both). It holds
// for the last query candidates ran.
func (ix *Index) wordsBound(it *item, a, total float64) float64 {
	b, aExact, bExact := 0.0, 0.0, 0.0
	for _, w := range it.terms {
		ref := ix.words[w]
		if r := ix.reach[ref.key]; r.gen == ix.gen {
			b += ref.weight * r.w
			if r.exact > 0 {
				aExact += r.exact
				bExact += ref.weight
			}
		}
	}
	b = math.Min(1, b/it.total)
	return ix.lex.exactDiscount(ix.lex.mix(a, b), ix.lex.mix(aExact/total, bExact/it.total))
}

// pairsRun is what Pairs keeps while every item is a query in turn.
type pairsRun struct {
	queried []bool // by slot: the item's pairs were found
	// rare[slot] is the item's total weight (as weight, key -1), then its
	// words, rarest first (fewest items holding their key; stop words,
	// which are not indexed, last).
	rare [][]rareWord
}

// rareWord is a word of an item: its key id and weight.
type rareWord struct {
	key    int32
	weight float64
}

func newPairsRun(ix *Index) *pairsRun {
	return &pairsRun{queried: make([]bool, len(ix.items)), rare: make([][]rareWord, len(ix.items))}
}

// outOfReach reports whether an item's score stays below theta: its
// direction towards the query is the weight of its words times how well a
// query word can match each (reach) over its total, and the score grows
// with that direction, so once its words miss enough of their weight,
// whatever the others match, the item cannot reach theta. The words are
// taken rarest first (the ones a query misses), so the answer is mostly
// known after a few. It only leaves out items that the bound of candidates
// leaves out too (2·eps: both sums differ by rounding only), so the
// candidates are the same, found with less work.
func (pr *pairsRun) outOfReach(ix *Index, slot int32, a, m, theta float64) bool {
	words := pr.rare[slot]
	if words == nil {
		words = pr.rarestFirst(ix, ix.items[slot])
		pr.rare[slot] = words
	}
	total := words[0].weight
	missed := 0.0
	for _, w := range words[1:] {
		r := ix.reach[w.key]
		if r.gen != ix.gen {
			missed += w.weight
		} else if r.w < 1 {
			missed += w.weight * (1 - r.w)
		} else {
			continue
		}
		b := math.Min(1, (total-missed)/total)
		if m*math.Min(a, b)+(1-m)*(a+b)/2 < theta-2*eps {
			return true
		}
	}
	return false
}

// rarestFirst lists an item's total, then its words rarest first.
func (pr *pairsRun) rarestFirst(ix *Index, it *item) []rareWord {
	keys := make([]uint64, len(it.terms))
	for i, w := range it.terms {
		df := uint32(math.MaxUint32)
		if ref := ix.words[w]; !ref.stop {
			df = uint32(min(len(ix.postings[ref.key]), math.MaxUint32-1))
		}
		keys[i] = uint64(df)<<32 | uint64(i)
	}
	slices.Sort(keys)
	out := make([]rareWord, 1+len(keys))
	out[0] = rareWord{-1, it.total}
	for i, k := range keys {
		ref := ix.words[it.terms[uint32(k)]]
		out[1+i] = rareWord{ref.key, ref.weight}
	}
	return out
}

// grow sizes the per-query scratch space to the index.
func (ix *Index) grow() {
	if n := len(ix.items); len(ix.mark) < n {
		ix.mark = append(ix.mark, make([]uint64, n-len(ix.mark))...)
		ix.acc = append(ix.acc, make([]float64, n-len(ix.acc))...)
		ix.exactAcc = append(ix.exactAcc, make([]float64, n-len(ix.exactAcc))...)
	}
	if n := len(ix.items); ix.boundsBySide() {
		// After a compaction matchable may be longer than the items (it
		// holds nothing between queries) while sides start again.
		if len(ix.matchable) < n {
			ix.matchable = append(ix.matchable, make([]float64, n-len(ix.matchable))...)
		}
		if len(ix.sides) < n && n > len(ix.storedStops) {
			ix.sides = append(ix.sides, make([]itemSide, n-len(ix.sides))...)
		}
	}
	if n := len(ix.postings); len(ix.reach) < n {
		ix.reach = append(ix.reach, make([]reachOf, n-len(ix.reach))...)
	}
}

// heldAsStop reports whether some item holds key id as a stop word.
func (ix *Index) heldAsStop(id int32) bool {
	ix.keyTables()
	return int(id) < len(ix.stopKey) && ix.stopKey[id]
}

// setReach records that a query word can match key with similarity up to w.
func (ix *Index) setReach(key int32, w float64) {
	if r := &ix.reach[key]; r.gen != ix.gen {
		r.gen, r.w, r.exact = ix.gen, w, 0
		ix.scratch.reached = append(ix.scratch.reached, key)
	} else if w > r.w {
		r.w = w
	}
}

// keySim is an indexed key that a query word can match, with the best
// similarity it can have with a word of that key.
type keySim struct {
	key    int32
	weight float64
}

// expand lists the indexed keys a query term can match: its own key
// (similarity 1), the keys of indexed words sharing one of its WordNet
// concepts (the best concept similarity) and those of indexed words whose
// vectors neighbour its own (their vector similarity), sorted by key id.

// vectorConcept is the entry of Index.vocab that lists the keys of the
// indexed words with word vector v: WordNet's synsets have positive ids,
// vectors negative ones.
func vectorConcept(v int32) int32 { return -1 - v }

// expand lists the indexed keys a query term can match (see above).
func (ix *Index) expand(t term) []keySim {
	if out, ok := ix.expanded[t.wordInfo]; ok {
		return out
	}
	// The best similarity by key, in a table by key id marked with the
	// expansion's number (a key not set yet counts as 0).
	ex := &ix.expansion
	if ex.n++; ex.n == 0 { // wrapped: no mark may look like this expansion's
		clear(ex.at)
		ex.n = 1
	}
	if n := len(ix.postings); len(ex.at) < n {
		ex.at = append(ex.at, make([]uint32, n-len(ex.at))...)
		ex.best = append(ex.best, make([]float64, n-len(ex.best))...)
	}
	ex.keys = ex.keys[:0]
	put := func(key int32, w float64) {
		if ex.at[key] != ex.n {
			ex.at[key], ex.best[key] = ex.n, math.Max(0, w)
			ex.keys = append(ex.keys, key)
		} else {
			ex.best[key] = math.Max(ex.best[key], w)
		}
	}
	if id, ok := ix.keyID(t.key); ok {
		put(id, 1)
	}
	for _, c := range t.concepts {
		for _, kd := range ix.vocab[c.id] {
			put(kd.key, ix.lex.conceptSim[c.dist+kd.dist])
		}
	}
	// The keys of indexed words whose vectors neighbour the query word's.
	for _, n := range t.near {
		kds := ix.vocab[vectorConcept(n)]
		if len(kds) == 0 {
			continue
		}
		s := ix.lex.vectorSim(t.wordInfo, n, ix.lex.wv.invNorm(n))
		for _, kd := range kds {
			put(kd.key, s)
		}
	}
	slices.Sort(ex.keys)
	out := make([]keySim, len(ex.keys))
	for i, k := range ex.keys {
		out[i] = keySim{k, ex.best[k]}
	}
	if ix.expanded != nil {
		ix.expanded[t.wordInfo] = out
	}
	return out
}

// queryExpansion is expand of the query's word ti, kept while the index
// answers the same query (a search at a lower floor asks again).
func (ix *Index) queryExpansion(q *query, ti int) []keySim {
	ex := &ix.expansion
	if ex.query != q {
		ex.query = q
		ex.terms = append(ex.terms[:0], make([][]keySim, len(q.doc.terms))...)
	}
	if ex.terms[ti] == nil {
		ex.terms[ti] = ix.expand(q.doc.terms[ti])
	}
	return ex.terms[ti]
}

// expansionScratch is what expand works in, kept for the next word, and
// the expansions of the last query's words.
type expansionScratch struct {
	n    uint32
	at   []uint32  // by key id: the expansion that last set best
	best []float64 // by key id
	keys []int32   // the keys set by this expansion
	// query is the query whose words' expansions terms holds (nil for a
	// word not expanded yet).
	query *query
	terms [][]keySim
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
