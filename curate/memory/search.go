package memory

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// SearchFloor is the least similarity of a result found by the similarity
// engine; below it, a memory is a result only when it holds every word of
// the query (the lexical fallback).
const SearchFloor = 0.3

// DefaultSearchLimit is how many results a search returns when not told.
const DefaultSearchLimit = 20

// Kinds of search results: how the memory matched.
const (
	MatchSimilarity = "similarity"
	MatchWords      = "words"
)

// SearchRequest asks for the memories most similar to a query.
type SearchRequest struct {
	Query string
	// Status is the folder searched: confirmed when empty (the memory
	// procedure searches long-term memory, never the inbox, unless asked).
	Status string
	Type   string
	// Tags a result must all carry.
	Tags []string
	// Author a result must have (exactly, ignoring case).
	Author string
	// Since: a result's ingestion_time is at or after it (zero: any).
	Since time.Time
	// Limit is the most results (0: DefaultSearchLimit); negative is wrong.
	Limit int
	// Floor is the least similarity of a result found by the engine (0:
	// SearchFloor).
	Floor float64
}

// Check refuses an empty query, an unknown status or type and a negative limit.
func (r SearchRequest) Check() error {
	if strings.TrimSpace(r.Query) == "" {
		return refuse.Requestf("query: give the words to search for")
	}
	if r.Status != "" && !slices.Contains(mdstore.MemoryStatuses, r.Status) {
		return refuse.Requestf("status %q: want one of %s", r.Status, strings.Join(mdstore.MemoryStatuses, ", "))
	}
	if r.Type != "" && !slices.Contains(mdstore.MemoryTypes, r.Type) {
		return refuse.Requestf("type %q: want one of %s", r.Type, strings.Join(mdstore.MemoryTypes, ", "))
	}
	if r.Limit < 0 {
		return refuse.Requestf("limit %d: want at least 1 (0 is the default, %d)", r.Limit, DefaultSearchLimit)
	}
	return nil
}

// SearchResult is one memory found: its entry (with its body), how
// similar its brief is to the query, and how it matched (MatchSimilarity,
// MatchWords).
type SearchResult struct {
	Entry
	Similarity float64 `json:"similarity"`
	Match      string  `json:"match"`
}

// SearchReport is a search's answer: the results, best first, and the
// files that could not be read.
type SearchReport struct {
	Query   string                 `json:"query"`
	Status  string                 `json:"status"`
	Engine  string                 `json:"engine"`
	Results []SearchResult         `json:"results"`
	Invalid []*mdstore.InvalidFile `json:"invalid"`
	Notes   []string               `json:"notes"`
}

// Listing reads the memories of a query. since is the version of the
// listing the caller holds: a listing that can tell that nothing changed
// since then returns a nil list and since, and one that knows what changed
// may return only that (a list with Delta set: live.Memories.ListDelta);
// one that cannot returns the whole list and version 0.
type Listing func(q mdstore.MemoryQuery, since uint64) (*mdstore.MemoryList, uint64, error)

// StoreListing lists the store's files on every call (ListMemories).
func StoreListing(s *mdstore.Store) Listing {
	return func(q mdstore.MemoryQuery, _ uint64) (*mdstore.MemoryList, uint64, error) {
		res, err := cache.ListMemories(s, q)
		return res, 0, err
	}
}

// SearchIndex is the candidate index of the similarity engine over the
// briefs of the memories of each status, kept from one search to the next
// (the MCP server keeps one warm; a command makes one per run). Each search
// brings it up to date with its listing: only memories whose brief
// changed are indexed again. It is safe for concurrent use.
type SearchIndex struct {
	engine  similar.Engine
	list    Listing
	stored  *mdstore.Store // the stored index of this store is read instead of list
	mu      sync.Mutex
	folders map[string]*searchFolder
}

// searchFolder is the index of one status's memories.
type searchFolder struct {
	version uint64
	ix      *similar.Index
	// byPath holds the memories of a listing.
	byPath map[string]*searched
	// stored holds those of the stored index, each decoded when first
	// asked (into asked, by its index there).
	stored  *cache.SearchedMemories
	asked   map[int]*searched
	invalid []*mdstore.InvalidFile
	// newest is the memories of a listing newest first (then by path),
	// for the fallback; nil until asked after a change.
	newest []*searched
	notes  []string
}

// get is the memory of a path (nil: none).
func (f *searchFolder) get(p string) *searched {
	if f.stored == nil {
		return f.byPath[p]
	}
	i, ok := f.stored.Find(p)
	if !ok {
		return nil
	}
	return f.at(i)
}

// at is memory i of the stored index.
func (f *searchFolder) at(i int) *searched {
	e := f.asked[i]
	if e == nil {
		e = &searched{m: f.stored.Memory(i)}
		f.asked[i] = e
	}
	return e
}

// searched is one indexed memory: its record, the text indexed and the
// words the fallback looks for (both made when first asked).
type searched struct {
	m     *mdstore.Memory
	text  string
	words string
}

// textOf is the text the engine compares with a query.
func (e *searched) textOf() string {
	if e.text == "" {
		e.text = searchText(e.m)
	}
	return e.text
}

// wordsOf is where the fallback looks for the query's words.
func (e *searched) wordsOf() string {
	if e.words == "" {
		e.words = fallbackText(e.m)
	}
	return e.words
}

// NewSearchIndex returns an empty index that ranks with e and reads the
// memories from list.
func NewSearchIndex(e similar.Engine, list Listing) *SearchIndex {
	return &SearchIndex{engine: e, list: list, folders: map[string]*searchFolder{}}
}

// searchText is what the engine compares with the query: the brief, and a
// lesson's scenario.
func searchText(m *mdstore.Memory) string {
	if m.Scenario != "" {
		return m.Brief + "\n" + m.Scenario
	}
	return m.Brief
}

// fallbackText is where the fallback looks for the query's words: the
// brief, the scenario, the tags, the author and the id, in lower case.
func fallbackText(m *mdstore.Memory) string {
	return strings.ToLower(strings.Join(append([]string{m.Brief, m.Scenario, m.Author, m.ID}, m.Tags...), "\n"))
}

// sync brings the index of a status up to date with the listing.
func (x *SearchIndex) sync(status string) (*searchFolder, error) {
	f := x.folders[status]
	if f == nil {
		f = &searchFolder{ix: similar.NewIndex(x.engine), byPath: map[string]*searched{}}
		x.folders[status] = f
	}
	res, version, err := x.list(mdstore.MemoryQuery{Status: status, Light: true}, f.version)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return f, nil
	}
	f.newest = nil
	if res.Delta {
		for _, p := range res.Removed {
			if f.byPath[p] != nil {
				f.ix.Remove(p)
				delete(f.byPath, p)
			}
		}
		for _, m := range res.Memories {
			f.put(m)
		}
		f.version, f.invalid = version, res.Invalid
		return f, nil
	}
	if lex, ok := x.engine.(*similar.Lexical); ok && len(f.byPath) == 0 && f.ix.Len() == 0 {
		f.addAll(lex, res.Memories)
		f.version, f.invalid = version, res.Invalid
		return f, nil
	}
	seen := make(map[string]bool, len(res.Memories))
	for _, m := range res.Memories {
		seen[m.Path] = true
		f.put(m)
	}
	for p := range f.byPath {
		if !seen[p] {
			f.ix.Remove(p)
			delete(f.byPath, p)
		}
	}
	f.version, f.invalid = version, res.Invalid
	return f, nil
}

// put holds a listed memory, indexing its text again when it changed.
func (f *searchFolder) put(m *mdstore.Memory) {
	text := searchText(m)
	if old := f.byPath[m.Path]; old == nil || old.textOf() != text {
		f.ix.Add(m.Path, text)
	}
	f.byPath[m.Path] = &searched{m: m, text: text}
}

// addAll indexes the memories of a first listing by their words: an item
// keeps no analysis of its text until it is scored (its text is then
// asked from byPath), so a server that holds 100,000 memories holds far
// less for the collector to go through.
func (f *searchFolder) addAll(lex *similar.Lexical, ms []*mdstore.Memory) {
	ids := make([]string, len(ms))
	terms := make([][]uint32, len(ms))
	var words []string
	wordIDs := map[string]uint32{}
	for i, m := range ms {
		e := &searched{m: m, text: searchText(m)}
		f.byPath[m.Path] = e
		ids[i] = m.Path
		for _, w := range lex.Words(e.text) {
			id, ok := wordIDs[w]
			if !ok {
				id = uint32(len(words))
				wordIDs[w] = id
				words = append(words, w)
			}
			terms[i] = append(terms[i], id)
		}
	}
	f.ix.SetText(func(p string) string { return f.byPath[p].textOf() })
	f.ix.AddAllTerms(ids, lex.Vocabulary(words), terms)
}

// Search finds the memories of a status (confirmed by default) whose
// brief is most similar to the query, by the similarity engine through its
// candidate index, best first; when fewer than the limit reach
// SearchFloor, the memories that hold every word of the query (in brief,
// scenario, tags, author or id) follow, newest first. The filters (type,
// tags, author, since) hold for both. The results' bodies are read from
// their files. An engine that fails stops the search.
func Search(_ context.Context, s *mdstore.Store, x *SearchIndex, req SearchRequest) (*SearchReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	if req.Status == "" {
		req.Status = "confirmed"
	}
	if x.stored == nil {
		return x.search(s, req, storedRead{})
	}
	defer s.WriteCaches()
	var how storedRead
	for {
		rep, err := x.search(s, req, how)
		switch {
		case errors.Is(err, errStale) && !how.verify:
			// A result's file was edited in place since the stored index
			// was written: every file is checked.
			how.verify = true
		case errors.Is(err, errDamaged) && !how.rebuild:
			// An entry the search looked at could not be decoded: every
			// file is read.
			how.rebuild = true
		default:
			return rep, err
		}
	}
}

// errStale: a result's file is not what the stored index holds.
var errStale = errors.New("memory search: stored index is stale")

// errDamaged: an entry of the stored index could not be decoded.
var errDamaged = errors.New("memory search: stored index is damaged")

// storedRead is how a search reads the stored index: verify states every
// file, rebuild reads every file.
type storedRead struct{ verify, rebuild bool }

// search is Search, the stored index read as how says.
func (x *SearchIndex) search(s *mdstore.Store, req SearchRequest, how storedRead) (*SearchReport, error) {
	verify := how.verify
	limit := req.Limit
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	x.mu.Lock()
	var f *searchFolder
	var err error
	if x.stored != nil {
		f, err = x.loadStored(req.Status, how)
	} else {
		f, err = x.sync(req.Status)
	}
	if err != nil {
		x.mu.Unlock()
		return nil, err
	}
	// Without a filter every memory is taken: none is decoded for it.
	var accept func(string) bool
	if req.filters() {
		accept = func(p string) bool { return req.accepts(f.get(p).m) }
	}
	floor := req.Floor
	if floor <= 0 {
		floor = SearchFloor
	}
	hits := f.ix.Top(req.Query, floor, limit, accept)
	if len(hits) > limit {
		hits = hits[:limit]
	}
	found := make(map[string]bool, len(hits))
	results := make([]SearchResult, 0, len(hits))
	indexed := make([]*mdstore.Memory, 0, limit)
	for _, h := range hits {
		found[h.ID] = true
		m := f.get(h.ID).m
		indexed = append(indexed, m)
		results = append(results, SearchResult{Entry: NewEntry(m), Similarity: round(h.Score), Match: MatchSimilarity})
	}
	if len(results) < limit {
		words := x.byWords(f, req, found, limit-len(results))
		for _, r := range words {
			indexed = append(indexed, f.get(r.Path).m)
		}
		results = append(results, words...)
	}
	invalid := nonNil(f.invalid)
	x.mu.Unlock()
	if f.stored != nil && f.stored.Damaged() {
		return nil, errDamaged
	}
	if err := engineErr(x.engine); err != nil {
		return nil, err
	}
	for i := range results {
		if x.stored == nil {
			// The live listing's fields are the files' as of this call:
			// only the body is read.
			if body, err := s.ReadBody(results[i].Path); err == nil {
				results[i].Body = body
			}
			continue
		}
		m, err := s.ReadMemory(results[i].Path)
		if !verify && (err != nil || !sameSearched(m, indexed[i])) {
			return nil, errStale
		}
		if err == nil {
			// The stored index holds a record's fields only: its entry is
			// the file's, as a listing reads it.
			body := m.Body()
			m.Doc, m.ImportanceFactors = nil, nil
			results[i].Entry = NewEntry(m)
			results[i].Body = body
		}
	}
	rep := &SearchReport{Query: req.Query, Status: req.Status, Engine: x.engine.Name(), Results: results, Invalid: invalid, Notes: append([]string{}, f.notes...)}
	if name := x.engine.Name(); strings.HasPrefix(name, "lexical (fallback") {
		rep.Notes = append(rep.Notes, "similarity: scored with the "+name+", as similarity.fallback: local asks")
	}
	return rep, nil
}

// sameSearched reports whether a memory read from its file has the fields
// a search looks at as the stored index holds them.
func sameSearched(file, indexed *mdstore.Memory) bool {
	return file.ID == indexed.ID && file.Type == indexed.Type && file.Author == indexed.Author && file.Brief == indexed.Brief &&
		file.Scenario == indexed.Scenario && file.IngestionTime.Equal(indexed.IngestionTime) && slices.Equal(file.Tags, indexed.Tags)
}

// byWords is the lexical fallback: the accepted memories not found yet
// that hold every word of the query, newest first (then by path), at most n.
func (x *SearchIndex) byWords(f *searchFolder, req SearchRequest, found map[string]bool, n int) []SearchResult {
	words := strings.FieldsFunc(strings.ToLower(req.Query), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return nil
	}
	var hits []*searched
	f.eachNewest(func(e *searched) bool {
		if !found[e.m.Path] && req.accepts(e.m) && holdsAll(e.wordsOf(), words) {
			hits = append(hits, e)
		}
		return len(hits) < n
	})
	out := make([]SearchResult, 0, len(hits))
	for _, e := range hits {
		out = append(out, SearchResult{Entry: NewEntry(e.m), Similarity: round(x.engine.Score(req.Query, e.textOf())), Match: MatchWords})
	}
	return out
}

// eachNewest calls yield with the folder's memories newest first, then by
// path, until it returns false. Those of the stored index are taken in
// the order it keeps, each decoded when it comes.
func (f *searchFolder) eachNewest(yield func(*searched) bool) {
	if f.stored != nil {
		for k := range f.stored.Len() {
			i := f.stored.Newest(k)
			if i < 0 || !yield(f.at(i)) {
				return
			}
		}
		return
	}
	for _, e := range f.newestFirst() {
		if !yield(e) {
			return
		}
	}
}

// newestFirst is the listed memories newest first, then by path.
func (f *searchFolder) newestFirst() []*searched {
	if f.newest == nil {
		f.newest = make([]*searched, 0, len(f.byPath))
		for _, e := range f.byPath {
			f.newest = append(f.newest, e)
		}
		slices.SortFunc(f.newest, func(a, b *searched) int {
			if c := b.m.IngestionTime.Compare(a.m.IngestionTime); c != 0 {
				return c
			}
			return strings.Compare(a.m.Path, b.m.Path)
		})
	}
	return f.newest
}

func holdsAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// filters reports whether the request has a filter (accepts may refuse).
func (r SearchRequest) filters() bool {
	return r.Type != "" || r.Author != "" || !r.Since.IsZero() || len(r.Tags) > 0
}

// accepts reports whether a memory passes the request's filters.
func (r SearchRequest) accepts(m *mdstore.Memory) bool {
	if r.Type != "" && m.Type != r.Type {
		return false
	}
	if r.Author != "" && !strings.EqualFold(m.Author, r.Author) {
		return false
	}
	if !r.Since.IsZero() && m.IngestionTime.Before(r.Since) {
		return false
	}
	for _, t := range r.Tags {
		if !slices.Contains(m.Tags, t) {
			return false
		}
	}
	return true
}

// engineErr is the error of an engine that failed while it ranked (an
// embeddings server that did not answer, without a fallback).
func engineErr(e similar.Engine) error {
	if f, ok := e.(interface{ Err() error }); ok && f.Err() != nil {
		return f.Err()
	}
	return nil
}
