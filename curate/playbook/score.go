package playbook

import (
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// Scorer scores pairs of texts as curation sees them (`curator similarity
// score`).
type Scorer struct{ e similar.Engine }

// NewScorer is the scorer of the store's engine (Engine), or of the
// default engine outside every store (s nil).
func NewScorer(s *mdstore.Store) (*Scorer, error) {
	var e similar.Engine
	var err error
	if s == nil {
		e, err = similar.New(similar.Config{})
	} else {
		e, err = Engine(s)
	}
	if err != nil {
		return nil, err
	}
	return &Scorer{e: e}, nil
}

// Score is how similar a and b are, in [0,1]; the error is the engine's
// when it failed on them (its server did not answer), and then the score
// means nothing.
func (sc *Scorer) Score(a, b string) (float64, error) {
	v := sc.e.Score(a, b)
	if f, ok := sc.e.(interface{ Err() error }); ok && f.Err() != nil {
		return v, f.Err()
	}
	return v, nil
}

// Close keeps what the engine learnt for the next run (its embeddings
// cache).
func (sc *Scorer) Close() error {
	if saver, ok := sc.e.(interface{ Save() error }); ok {
		return saver.Save()
	}
	return nil
}
