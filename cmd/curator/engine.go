package main

import (
	"errors"
	"path/filepath"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// similarityEngine is the engine that curate uses: the `similarity:` section
// of the store's config.yaml, or the local lexical engine when there is no
// store. A relative cache_file is taken from the store folder; the default
// is .curator/.cache/embeddings.json (git-ignored).
func (g globals) similarityEngine() (similar.Engine, error) {
	cfg := similar.Config{}
	s, err := g.openStore()
	switch {
	case errors.Is(err, mdstore.ErrNoStore) && g.Store == "":
		return similar.New(cfg)
	case err != nil:
		return nil, err
	}
	if err := s.Config.Section("similarity", &cfg); err != nil {
		return nil, usageError{err}
	}
	if cfg.CacheFile == "" {
		cfg.CacheFile = s.Path(".cache/embeddings.json")
	} else if !filepath.IsAbs(cfg.CacheFile) {
		cfg.CacheFile = s.Path(cfg.CacheFile)
	}
	return similar.New(cfg)
}
