package memory

import (
	"crypto/sha256"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// searchAnalysis names what the stored search index keeps of a memory
// (the words of its brief and scenario, searchText): a change of it
// rebuilds the index.
const searchAnalysis = " memory-search brief+scenario 1"

// storedSearchKey names the candidate index kept in the stored search
// index: it is written with the memories it was built from, in one file
// under one checksum, so one key serves.
var storedSearchKey = sha256.Sum256([]byte("curator memory search"))

// NewStoredSearchIndex returns an index that reads the memories of s from
// its stored search index (cache.SearchedMemories) on every search: the
// record files are stated, and only those that changed since the index
// was written are read, with the files of the results. The candidate index
// is stored with them, and built again only when a memory's text changed.
// The file is mapped, for the rest of the process (mdstore's
// MemorySearchQuery.Map), and a search decodes only the memories it looks
// at: the index is made for a process that searches once, as a command.
// An engine that is not lexical lists the store's files (StoreListing).
func NewStoredSearchIndex(s *mdstore.Store, e similar.Engine) *SearchIndex {
	x := NewSearchIndex(e, StoreListing(s))
	if _, ok := e.(*similar.Lexical); ok {
		x.stored = s
	}
	return x
}

// loadStored reads a status's memories and their candidate index from the
// stored search index (every file stated with how.verify, read with
// how.rebuild), and queues its write when it changed. Its entries are
// decoded when the search asks them.
func (x *SearchIndex) loadStored(status string, how storedRead) (*searchFolder, error) {
	lex := x.engine.(*similar.Lexical)
	sm, err := cache.SearchMemories(x.stored, cache.MemorySearchQuery{Status: status,
		Analyser: cache.Analyser{Version: lex.Version() + searchAnalysis, Words: lex.Words}, Text: searchText,
		Verify: how.verify, Rebuild: how.rebuild, Map: true})
	if err != nil {
		return nil, err
	}
	f := &searchFolder{ix: similar.NewIndex(x.engine), stored: sm, asked: map[int]*searched{}, invalid: sm.Invalid}
	if sm.Warning != "" {
		f.notes = append(f.notes, sm.Warning)
	}
	ids := sm.Paths()
	f.ix.SetText(func(p string) string { return f.get(p).textOf() })
	v := lex.Vocabulary(sm.Words)
	// The stored index was read under the file's checksum.
	if sm.Stored != nil && f.ix.LoadCheckedSnapshot(storedSearchKey, ids, v, sm.Stored) {
		sm.QueueSave(x.stored, func() []byte { return sm.Stored })
		return f, nil
	}
	terms := make([][]uint32, len(ids))
	for i := range terms {
		terms[i] = sm.Terms(i)
	}
	f.ix.AddAllTerms(ids, v, terms)
	snap := f.ix.Snapshot(storedSearchKey, ids, v, terms)
	sm.Stored = nil
	sm.QueueSave(x.stored, func() []byte { return snap })
	return f, nil
}
