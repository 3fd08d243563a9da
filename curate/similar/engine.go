package similar

import (
	"fmt"

	"github.com/curator-dev/curator/config"
)

// Thresholds of curate that the engines are tuned for: from MergeFloor up
// to the curate threshold two lessons are merged, above it they count as
// the same lesson.
const (
	MergeFloor = config.MergeFloor
)

// An Engine scores how similar two texts are: a number in [0,1], symmetric,
// 1 for identical non-empty texts, and the same answer on every run.
type Engine interface {
	Name() string
	Score(a, b string) float64
}

// Config is the `similarity:` section of the store's config.yaml (a
// CacheFile of "" keeps no cache; a Timeout of 0 is 30s).
type Config = config.Similarity

// New returns the engine that cfg names.
func New(cfg Config) (Engine, error) {
	switch cfg.Engine {
	case "", "lexical":
		return NewLexical(), nil
	case "embeddings":
		return NewEmbeddings(cfg)
	}
	return nil, fmt.Errorf("similarity engine %q: want \"lexical\" or \"embeddings\"", cfg.Engine)
}
