package similar

import (
	"fmt"

	"github.com/curator-dev/curator/internal/duration"
)

// Thresholds of curate that the engines are tuned for: from MergeFloor up
// to the curate threshold two lessons are merged, above it they count as
// the same lesson.
const (
	MergeFloor = 0.6
)

// An Engine scores how similar two texts are: a number in [0,1], symmetric,
// 1 for identical non-empty texts, and the same answer on every run.
type Engine interface {
	Name() string
	Score(a, b string) float64
}

// Config is the `similarity:` section of the store's config.yaml.
type Config struct {
	Engine    string           `yaml:"engine"`      // "lexical" (default) or "embeddings"
	BaseURL   string           `yaml:"base_url"`    // embeddings: OpenAI-compatible server, e.g. http://localhost:11434
	Model     string           `yaml:"model"`       // embeddings: model name sent to the server
	APIKeyEnv string           `yaml:"api_key_env"` // embeddings: environment variable holding the API key (optional)
	CacheFile string           `yaml:"cache_file"`  // embeddings: vector cache file (keep it git-ignored); "" = no cache
	Fallback  string           `yaml:"fallback"`    // embeddings: "local" = use the lexical engine when the server is down
	Timeout   duration.Setting `yaml:"timeout"`     // embeddings: per request, default 30s
}

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
