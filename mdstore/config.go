package mdstore

import (
	"fmt"
	"os"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/curator-dev/curator/internal/duration"
	"github.com/curator-dev/curator/internal/secrets"
)

// Config is config.yaml. Sections owned by other packages (similarity,
// pipelines) are read with Section.
type Config struct {
	Author struct {
		Name  string `yaml:"name"`
		Email string `yaml:"email"`
	} `yaml:"author"`
	LockTimeout string            `yaml:"lock_timeout"`
	Memory      MemorySettings    `yaml:"memory"`
	IDPrefixes  map[string]string `yaml:"id_prefixes"`
	Secrets     SecretsConfig     `yaml:"secrets"`

	raw         yaml.Node
	secrets     *secrets.Policy
	lockTimeout time.Duration
}

// MemorySettings are config.yaml's memory section, with their defaults
// filled in when the file leaves them out.
type MemorySettings struct {
	// DedupPrefix is how many runes of brief make the dedup key.
	DedupPrefix int `yaml:"dedup_prefix"`
	// ObservationDays is the observation period a promotion starts
	// (observation.window_days).
	ObservationDays int `yaml:"observation_days"`
}

// Defaults of the settings (as DefaultConfig spells them out).
const (
	DefaultLockTimeout     = 10 * time.Second
	DefaultDedupPrefix     = 40
	DefaultObservationDays = 7
)

// DefaultConfig is what `curator init` writes, with every setting spelled out.
const DefaultConfig = `# curator settings. Every key is optional; these are the defaults.
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

func loadConfig(path string) (Config, error) {
	var c Config
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		data = []byte(DefaultConfig)
	} else if err != nil {
		return c, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := yaml.Unmarshal(data, &c.raw); err != nil {
		return c, fmt.Errorf("%s: %w: %v", path, ErrConfig, err)
	}
	if err := checkConfig(path, &c.raw); err != nil {
		return c, err
	}
	if err := c.raw.Decode(&c); err != nil && c.raw.Kind != 0 {
		return c, fmt.Errorf("%s: %w: %v", path, ErrConfig, err)
	}
	if c.secrets, err = secrets.New(c.Secrets.Allow); err != nil {
		return c, fmt.Errorf("%s: %w: %v", path, ErrConfig, err)
	}
	c.lockTimeout = DefaultLockTimeout
	if c.LockTimeout != "" {
		if c.lockTimeout, err = duration.Parse(c.LockTimeout); err != nil {
			return c, fmt.Errorf("%s: %w: lock_timeout: %v", path, ErrConfig, err)
		}
	}
	if c.Memory.DedupPrefix == 0 {
		c.Memory.DedupPrefix = DefaultDedupPrefix
	}
	if c.Memory.ObservationDays == 0 {
		c.Memory.ObservationDays = DefaultObservationDays
	}
	if c.Author.Name == "" {
		c.Author.Name = "curator"
	}
	if c.Author.Email == "" {
		c.Author.Email = "curator@localhost"
	}
	return c, nil
}

// Section decodes one top-level section of config.yaml into v. A missing
// section leaves v as it is (its defaults). Its keys and values were
// checked when the file was loaded.
func (c Config) Section(key string, v any) error {
	if c.raw.Kind != yaml.DocumentNode || len(c.raw.Content) == 0 {
		return nil
	}
	m := c.raw.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			if err := m.Content[i+1].Decode(v); err != nil {
				return fmt.Errorf("config.yaml %s: %w", key, err)
			}
		}
	}
	return nil
}
