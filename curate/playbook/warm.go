package playbook

import (
	"bytes"
	"context"
	"os"
	"sync"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// Warm answers queries from a playbook it keeps read between them, for a
// process that answers many (the MCP server). Each query first asks the
// bullet index's listing whether the store changed since it was read (one
// stat per category folder, config.yaml read again): a bullet added,
// removed or rewritten by any process, or a folder changed within the racy
// window of its clock, reads the playbook again. The merge logs' unreadable
// lines are looked for at every query, as Query does. The answers are
// Query's, byte for byte. Only a playbook read through the bullet index is
// kept (the lexical engine); with another engine every query is Query. The
// zero Warm is ready; its queries run one at a time.
type Warm struct {
	mu     sync.Mutex
	dir    string
	config []byte // config.yaml as the playbook was read with it
	pb     *Playbook
	e      similar.Engine
	// reads and analyses bound what is kept between queries (0:
	// WarmReads and WarmAnalyses).
	reads, analyses int
}

// Query is Query, from the playbook kept when it is still the store's.
func (w *Warm) Query(ctx context.Context, s *mdstore.Store, q QueryRequest) (*QueryReport, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	cfg, err := os.ReadFile(s.Path("config.yaml"))
	if err != nil {
		w.pb = nil
		return Query(ctx, s, q)
	}
	if !w.current(s, cfg) {
		w.pb = nil
		pb, e, invalid, err := Read(s, true, s.Now())
		if err != nil || pb.lazy == nil {
			// The engine's settings are refused (a query without text
			// still answers) or it needs every text: not kept.
			return Query(ctx, s, q)
		}
		defer s.WriteCaches()
		rep, err := answer(pb, e, invalid, q)
		if err == nil {
			w.dir, w.config, w.pb, w.e = s.Dir, cfg, pb, e
			w.forget()
		}
		return rep, err
	}
	_, bad, err := cache.MergeLogIDs(s) // what a read-only load reports of them
	if err != nil {
		w.pb = nil
		return nil, err
	}
	defer s.WriteCaches()
	// This call's store reads the bullets' files and queues the cache
	// writes (a category's candidate index built now is stored).
	w.pb.lazy.store, w.pb.Now = s, s.Now().UTC()
	if w.pb.Matcher != nil {
		w.pb.Matcher.stored = cache.CandidateIndexesOf(s)
	}
	invalid := append(append(append([]*mdstore.InvalidFile(nil), w.pb.lazy.listing.Invalid...), w.pb.lazy.shared...), bad...)
	rep, err := answer(w.pb, w.e, invalid, q)
	if err != nil {
		w.pb = nil // a bullet file that could not be read: read again next time
		return rep, err
	}
	w.forget()
	return rep, err
}

// What a Warm keeps between queries: about WarmReads bullets read from
// their files (the last read), and in its candidate indexes the texts and
// analyses of about WarmAnalyses bullets (the last scored or bounded). A
// read bullet takes about 7 kB, an analysis about 4 kB; a server that
// answers varied queries would otherwise come to hold the whole playbook
// read and analysed (half a gigabyte at 100,000 bullets). A bullet is read
// again when its text or its fields are needed after it was let go of: a
// query's answers, and texts to score whose analyses were let go of.
const (
	WarmReads    = 5000
	WarmAnalyses = 20000
)

// forget lets go of what the playbook kept past WarmReads and
// WarmAnalyses.
func (w *Warm) forget() {
	reads, analyses := w.reads, w.analyses
	if reads == 0 {
		reads = WarmReads
	}
	if analyses == 0 {
		analyses = WarmAnalyses
	}
	w.pb.forgetReads(reads)
	if w.pb.Matcher != nil {
		w.pb.Matcher.Forget(analyses)
	}
}

// current reports whether the playbook kept is still the store's.
func (w *Warm) current(s *mdstore.Store, cfg []byte) bool {
	return w.pb != nil && w.pb.lazy != nil && w.dir == s.Dir && bytes.Equal(w.config, cfg) &&
		w.pb.lazy.listing.Unchanged(s)
}
