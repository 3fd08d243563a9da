package cache

import (
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/curator-dev/curator/mdstore"

	"github.com/curator-dev/curator/internal/durable"
)

// candidateIndexDir holds the stored candidate index of each category of
// the playbook (git-ignored with the rest of .cache): what the similarity
// engine built from the bullet index's words, so that a later run loads it
// instead of building it again. The engine validates a stored index against
// the bullets it is asked for; this package only keeps the files.
const candidateIndexDir = ".cache/candidate-index"

// candidateIndexPath is the store-relative file of a category's candidate
// index (the name is the category's bytes in hex: any folder name fits).
func candidateIndexPath(category string) string {
	return candidateIndexDir + "/" + hex.EncodeToString([]byte(category))
}

// CandidateIndexes are the candidate indexes stored in a store, a file per
// category.
type CandidateIndexes struct{ s *mdstore.Store }

// CandidateIndexesOf are the candidate indexes stored in s.
func CandidateIndexesOf(s *mdstore.Store) CandidateIndexes { return CandidateIndexes{s} }

// ReadCandidateIndex returns the stored candidate index of a category; nil
// when there is none or it cannot be read.
func (c CandidateIndexes) ReadCandidateIndex(category string) []byte {
	data, err := readCache(filepath.Join(c.s.Dir, candidateIndexPath(category)))
	if err != nil {
		return nil
	}
	return data
}

// QueueCandidateIndex queues the write of a category's candidate index with
// the run's other caches (WriteCaches): data is asked for then, and nothing
// is written when it returns nil (the index changed during the run). Best
// effort: a cache that cannot be written only costs speed next time.
func (c CandidateIndexes) QueueCandidateIndex(category string, data func() []byte) {
	s, rel := c.s, candidateIndexPath(category)
	s.QueueCache(rel, func() {
		b := data()
		if b == nil {
			return
		}
		path := filepath.Join(s.Dir, rel)
		if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
			_ = durable.WriteFile(path, b, 0o644, false)
		}
	})
}
