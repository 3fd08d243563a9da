package config

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/curator-dev/curator/internal/duration"
	"github.com/curator-dev/curator/internal/secrets"
)

// FileName is the name of the settings file in a store's folder.
const FileName = "config.yaml"

// Config is config.yaml: every section, typed, with the defaults filled in
// where the file leaves a setting out (Default is all defaults).
type Config struct {
	Author      Author            `yaml:"author"`
	LockTimeout duration.Setting  `yaml:"lock_timeout"`
	Memory      Memory            `yaml:"memory"`
	IDPrefixes  map[string]string `yaml:"id_prefixes"`
	Context     Context           `yaml:"context"`
	Similarity  Similarity        `yaml:"similarity"`
	Pipelines   Pipelines         `yaml:"pipelines"`
	Secrets     Secrets           `yaml:"secrets"`
	// Access is the access section; nil when config.yaml has none.
	Access *Access `yaml:"access"`

	secrets *secrets.Policy
}

// Author is who curator's commits name.
type Author struct {
	Name  string `yaml:"name"`
	Email string `yaml:"email"`
}

// Memory is the memory section.
type Memory struct {
	// DedupPrefix is how many runes of brief make the dedup key.
	DedupPrefix int `yaml:"dedup_prefix"`
	// ObservationDays is the observation period a promotion starts
	// (observation.window_days).
	ObservationDays int `yaml:"observation_days"`
}

// Context is the context section: the settings of `context curate` that
// its flags leave out.
type Context struct {
	// SimilarityThreshold: above it a lesson reinforces a bullet; from
	// MergeFloor up to it, it merges.
	SimilarityThreshold float64 `yaml:"similarity_threshold"`
	// MinConfidence: lessons under it are skipped.
	MinConfidence float64 `yaml:"min_confidence"`
	// SensitivePatterns are regular expressions for sensitive lessons.
	SensitivePatterns []string `yaml:"sensitive_patterns"`
}

// Similarity is the similarity section: the engine that scores how alike
// two texts are.
type Similarity struct {
	Engine    string           `yaml:"engine"`      // "lexical" (default) or "embeddings"
	BaseURL   string           `yaml:"base_url"`    // embeddings: OpenAI-compatible server, e.g. http://localhost:11434
	Model     string           `yaml:"model"`       // embeddings: model name sent to the server
	APIKeyEnv string           `yaml:"api_key_env"` // embeddings: environment variable holding the API key (optional)
	CacheFile string           `yaml:"cache_file"`  // embeddings: vector cache file (keep it git-ignored); "" = the store's default
	Fallback  string           `yaml:"fallback"`    // embeddings: "local" = use the lexical engine when the server is down
	Timeout   duration.Setting `yaml:"timeout"`     // embeddings: per request
}

// Pipelines is the pipelines section: the budget and feature switches
// (a pipeline home's pipeline-config.json overrides them).
type Pipelines struct {
	ContextWindow        int     `yaml:"context_window"`
	CompressionThreshold float64 `yaml:"compression_threshold"`
	StateBackups         int     `yaml:"state_backups"`
	EnableDriftDetection bool    `yaml:"enable_drift_detection"`
	EnableDashboard      bool    `yaml:"enable_dashboard"`
	// Hooks are, per pipeline type, the curation each moment of the loop
	// runs (event → curation; a moment left out runs its default).
	Hooks map[string]map[string]string `yaml:"hooks"`
	// Relevant is what relevant context a transition's brief gets.
	Relevant RelevantContext `yaml:"relevant_context"`
}

// Secrets is the secrets section.
type Secrets struct {
	// Allow are regular expressions for values that look like secrets but
	// are not.
	Allow []string `yaml:"allow"`
}

// The defaults of the settings (DefaultText spells them out). Flags and help
// text that print a default print these.
const (
	DefaultAuthorName  = "curator"
	DefaultAuthorEmail = "curator@localhost"
	DefaultLockTimeout = 10 * time.Second

	DefaultDedupPrefix     = 40
	DefaultObservationDays = 7

	// MergeFloor is the least similarity at which two lessons merge; a
	// similarity threshold under it is refused.
	MergeFloor                 = 0.6
	DefaultSimilarityThreshold = 0.85
	DefaultMinConfidence       = 0.5

	DefaultEngine            = "lexical"
	DefaultEmbeddingsTimeout = 30 * time.Second

	DefaultContextWindow        = 128000
	DefaultCompressionThreshold = 0.6
	DefaultStateBackups         = 5
)

// Default is the configuration of a store without config.yaml.
func Default() Config {
	return Config{
		Author:      Author{Name: DefaultAuthorName, Email: DefaultAuthorEmail},
		LockTimeout: duration.Setting(DefaultLockTimeout),
		Memory:      Memory{DedupPrefix: DefaultDedupPrefix, ObservationDays: DefaultObservationDays},
		Context:     Context{SimilarityThreshold: DefaultSimilarityThreshold, MinConfidence: DefaultMinConfidence},
		Similarity:  Similarity{Engine: DefaultEngine, Timeout: duration.Setting(DefaultEmbeddingsTimeout)},
		Pipelines: Pipelines{ContextWindow: DefaultContextWindow, CompressionThreshold: DefaultCompressionThreshold,
			StateBackups: DefaultStateBackups, EnableDriftDetection: true, EnableDashboard: true},
	}
}

// DefaultText is what `curator init` writes, with every setting spelled out.
const DefaultText = `# curator settings. Every key is optional; these are the defaults.
author:
  name: curator
  email: curator@localhost
lock_timeout: 10s
memory:
  dedup_prefix: 40          # runes of "brief" that make the dedup key
  observation_days: 7
id_prefixes:
  strategy: STRAT
  pattern: PATTERN
  anti-pattern: ANTI
  api: API
  troubleshooting: TRBL
  verification: VERIF
  other: MISC
context:
  similarity_threshold: 0.85
  min_confidence: 0.5
  # Regular expressions for lessons that are sensitive (as is a lesson
  # tagged "sensitive"): their bullets wait for review (validation: required).
  sensitive_patterns: []
similarity:
  engine: lexical           # or "embeddings" (OpenAI-compatible /v1/embeddings)
pipelines:
  context_window: 128000
  compression_threshold: 0.6
  state_backups: 5
secrets:
  # Regular expressions for values that look like secrets but are not (a
  # documented example key). Secrets are refused everywhere curator writes;
  # a line holding "curator:allow-secret" is let through as well.
  allow: []
`

// Load reads and checks the config.yaml at path (absent: Default). Any
// problem is an *Error naming the file, the line and the key.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return Default(), nil
	} else if err != nil {
		return Config{}, fmt.Errorf("reading %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse checks config.yaml's text data (read from path, which errors name)
// and decodes it over the defaults. A key set to nothing (`key:`) keeps
// its default.
func Parse(path string, data []byte) (Config, error) {
	c := Default()
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return c, fmt.Errorf("%s: %w: %v", path, ErrInvalid, err)
	}
	// config.yaml is one document: what a second would say is never read
	// (an empty one, a stray "---" at the end, says nothing).
	for {
		var more yaml.Node
		err := dec.Decode(&more)
		if err == io.EOF {
			break
		}
		if err != nil {
			return c, fmt.Errorf("%s: %w: after the first document: %v", path, ErrInvalid, err)
		}
		if empty := len(more.Content) == 0 || more.Content[0].Kind == yaml.ScalarNode && more.Content[0].Value == ""; !empty {
			return c, fmt.Errorf("%s:%d: %w: a second YAML document; config.yaml is one document", path, more.Line, ErrInvalid)
		}
	}
	if err := checkConfig(path, &doc); err != nil {
		return c, err
	}
	if len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode {
		if err := doc.Decode(&c); err != nil {
			return c, fmt.Errorf("%s: %w: %v", path, ErrInvalid, err)
		}
	}
	if c.Author.Name == "" {
		c.Author.Name = DefaultAuthorName
	}
	if c.Author.Email == "" {
		c.Author.Email = DefaultAuthorEmail
	}
	var err error
	if c.secrets, err = secrets.New(c.Secrets.Allow); err != nil {
		return c, fmt.Errorf("%s: %w: %v", path, ErrInvalid, err)
	}
	return c, nil
}

// SecretPolicy is the secret rules with the allow-list of these settings.
func (c Config) SecretPolicy() *secrets.Policy {
	if c.secrets == nil {
		return secrets.Default()
	}
	return c.secrets
}
