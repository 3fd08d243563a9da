package mdstore

import (
	"fmt"
	"os"

	"go.yaml.in/yaml/v3"

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
	IDPrefixes  map[string]string `yaml:"id_prefixes"`
	Secrets     SecretsConfig     `yaml:"secrets"`

	raw     yaml.Node
	secrets *secrets.Policy
}

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
		return c, fmt.Errorf("%s: %w", path, err)
	}
	if err := c.raw.Decode(&c); err != nil && c.raw.Kind != 0 {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	if c.secrets, err = secrets.New(c.Secrets.Allow); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
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
// section leaves v as it is (its defaults).
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
