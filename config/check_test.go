package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/internal/duration"
)

func TestConfigIsStrict(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	load := func(text string) (Config, error) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return Load(path)
	}
	c, err := load(DefaultText)
	if err != nil {
		t.Fatalf("the default config: %v", err)
	}
	if c.LockTimeout != duration.Setting(10*time.Second) || c.Memory.DedupPrefix != 40 || c.Memory.ObservationDays != 7 {
		t.Errorf("defaults: %v %+v", c.LockTimeout, c.Memory)
	}
	if d := Default(); c.Context.SimilarityThreshold != d.Context.SimilarityThreshold || !reflect.DeepEqual(c.Pipelines, d.Pipelines) || c.Similarity != d.Similarity || c.Author != d.Author {
		t.Errorf("the default text is not the defaults: %+v", c)
	}
	c, err = load("lock_timeout: 1.5d\nmemory:\n  dedup_prefix: 12\n  observation_days:\nsimilarity:\n  timeout: 2w\n")
	if err != nil || c.LockTimeout != duration.Setting(36*time.Hour) || c.Memory.DedupPrefix != 12 || c.Memory.ObservationDays != 7 ||
		c.Similarity.Timeout != duration.Setting(14*24*time.Hour) || c.Context.SimilarityThreshold != DefaultSimilarityThreshold {
		t.Errorf("settings: %v %+v %v", c.LockTimeout, c.Memory, err)
	}
	for text, want := range map[string]string{
		"lock_timeout: 5\n":                               `config.yaml:1: lock_timeout: "5" is not a duration: 5 has no unit`,
		"author:\n  name: a\nbogus_key: 1\n":              "config.yaml:3: bogus_key: unknown key (known: access, author, context,",
		"memory:\n  dedup_prefx: 10\n":                    "config.yaml:2: memory.dedup_prefx: unknown key (known: dedup_prefix, observation_days)",
		"memory:\n  dedup_prefix: 0\n":                    `config.yaml:2: memory.dedup_prefix: "0": want a whole number ≥ 1`,
		"memory:\n  dedup_prefix: 4.5\n":                  `memory.dedup_prefix: "4.5": want a whole number ≥ 1`,
		"memory: 3\n":                                     "config.yaml:1: memory: memory must be a map of keys",
		"context:\n  min_confidence: 2\n":                 `context.min_confidence: "2": want a number from 0 to 1`,
		"pipelines:\n  enable_dashboard: yes\n":           `pipelines.enable_dashboard: "yes": want true or false`,
		"similarity:\n  timeout: 30\n":                    `similarity.timeout: "30" is not a duration`,
		"similarity:\n  fallback: remote\n":               `similarity.fallback: "remote": want "local"`,
		"secrets:\n  allow: ['(']\n":                      `secrets.allow: item 1: "(" is not a regular expression`,
		"id_prefixes:\n  strategy: [a]\n":                 "id_prefixes.strategy: want a text value",
		"lock_timeout: 1s\nlock_timeout: 2s\n":            "config.yaml:2: lock_timeout: is set twice",
		"author: [unclosed\n":                             "config.yaml: config.yaml is invalid: yaml:",
		"- a list\n":                                      "config.yaml:1: the file must be a map of keys",
		"lock_timeout: 2weeksd\n":                         `unknown unit "weeksd"`,
		"similarity:\n  engine: lexicon\n":                `similarity.engine: "lexicon": want "lexical" or "embeddings"`,
		"pipelines:\n  state_backups: -1\n":               `pipelines.state_backups: "-1": want a whole number ≥ 0`,
		"pipelines:\n  context_window: 1e6\n":             `pipelines.context_window: "1e6": want a whole number ≥ 1`,
		"pipelines:\n  compression_threshold: x":          `pipelines.compression_threshold: "x": want a number from 0 to 1`,
		"context:\n  similarity_threshold: 0.3\n":         `config.yaml:2: context.similarity_threshold: "0.3": want a number from 0.6 to 1`,
		"similarity:\n  engine: embeddings\n  model: m\n": "config.yaml:2: similarity.engine: the embeddings engine needs similarity.base_url",
	} {
		_, err := load(text)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want ErrInvalid saying %q", text, err, want)
		}
	}
	if _, err := load(""); err != nil {
		t.Errorf("an empty file: %v", err)
	}
}

// TestOneDocument: what a second YAML document in config.yaml says would
// never be read, so one is refused with its line; an empty one (a stray
// "---" at the end) says nothing and passes.
func TestOneDocument(t *testing.T) {
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{"memory:\n  dedup_prefix: 10\n---\nbogus_key: 1\n", false},
		{"memory:\n  dedup_prefix: 10\n...\ngarbage: [\n", false},
		{"memory:\n  dedup_prefix: 10\n---\nhello\n", false},
		{"memory:\n  dedup_prefix: 10\n---\n", true},
		{"---\nmemory:\n  dedup_prefix: 10\n", true},
		{"# nothing but a comment\n", true},
	} {
		_, err := Parse("config.yaml", []byte(c.text))
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrInvalid)) {
			t.Errorf("%q: %v, want ok %v", c.text, err, c.ok)
		}
	}
	if _, err := Parse("config.yaml", []byte("memory:\n  dedup_prefix: 10\n---\nbogus_key: 1\n")); err == nil || !strings.Contains(err.Error(), "config.yaml:3:") {
		t.Errorf("the second document's line is not named: %v", err)
	}
}
