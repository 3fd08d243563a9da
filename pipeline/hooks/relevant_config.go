package hooks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
)

// Defaults of the relevant context of a brief.
const (
	DefaultRelevantBullets  = 5
	DefaultRelevantMemories = 3
)

// RelevantSettings say what relevant context a transition's brief gets:
// config.yaml's `pipelines.relevant_context`, and a transition's flags
// over it. A value left out (nil, empty) keeps the one below it.
type RelevantSettings struct {
	Enabled *bool `yaml:"enabled"`
	// Bullets and Memories are the most of each (0: none of that kind).
	Bullets  *int `yaml:"bullets"`
	Memories *int `yaml:"memories"`
	// Categories limit the bullets, MemoryTypes the memories (none: all).
	Categories  []string `yaml:"categories"`
	MemoryTypes []string `yaml:"memory_types"`
}

// LoadRelevantSettings reads `pipelines.relevant_context` of the store's
// config.yaml.
func LoadRelevantSettings(s *mdstore.Store) (RelevantSettings, error) {
	r := RelevantSettings(s.Config.Pipelines.Relevant)
	if err := r.Check(); err != nil {
		return RelevantSettings{}, fmt.Errorf("config.yaml pipelines.relevant_context: %w", err)
	}
	return r, nil
}

// Check refuses negative counts and unknown memory types.
func (r RelevantSettings) Check() error {
	for name, n := range map[string]*int{"bullets": r.Bullets, "memories": r.Memories} {
		if n != nil && *n < 0 {
			return refuse.Requestf("%s %d: want 0 or more", name, *n)
		}
	}
	for _, t := range r.MemoryTypes {
		if !slices.Contains(mdstore.MemoryTypes, t) {
			return refuse.Requestf("memory type %q: want one of %s", t, strings.Join(mdstore.MemoryTypes, ", "))
		}
	}
	return nil
}

// Over is r with the values that o sets.
func (r RelevantSettings) Over(o RelevantSettings) RelevantSettings {
	if o.Enabled != nil {
		r.Enabled = o.Enabled
	}
	if o.Bullets != nil {
		r.Bullets = o.Bullets
	}
	if o.Memories != nil {
		r.Memories = o.Memories
	}
	if len(o.Categories) > 0 {
		r.Categories = o.Categories
	}
	if len(o.MemoryTypes) > 0 {
		r.MemoryTypes = o.MemoryTypes
	}
	return r
}

// Options are the settings as the brief takes them: on unless Enabled
// is false, DefaultRelevantBullets and DefaultRelevantMemories unless
// set, the categories as the playbook spells them.
func (r RelevantSettings) Options() pipeline.RelevantOptions {
	o := pipeline.RelevantOptions{Off: r.Enabled != nil && !*r.Enabled, Bullets: DefaultRelevantBullets, Memories: DefaultRelevantMemories,
		MemoryTypes: r.MemoryTypes}
	if r.Bullets != nil {
		o.Bullets = *r.Bullets
	}
	if r.Memories != nil {
		o.Memories = *r.Memories
	}
	for _, c := range r.Categories {
		o.Categories = append(o.Categories, playbook.NormCategory(c))
	}
	return o
}
