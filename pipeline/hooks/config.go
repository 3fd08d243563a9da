package hooks

import (
	"fmt"
	"strings"

	"github.com/curator-dev/curator/mdstore"
)

// Curation is what an event runs, named as the command it stands for.
type Curation string

// The curations.
const (
	// Curate merges the pending reflections into the playbook
	// (`curator context curate`).
	Curate Curation = "curate"
	// Review lists the review queue (`curator context review`); it
	// changes nothing: approving is the product owner's.
	Review Curation = "review"
	// Maintenance curates the pending reflections and tidies the playbook
	// (`curator context curate --maintenance`).
	Maintenance Curation = "maintenance"
	// Dedup is maintenance that merges the overlapping bullets too, not
	// only proposes them (`curator context curate --maintenance
	// --auto-merge`).
	Dedup Curation = "dedup"
	// None runs nothing.
	None Curation = "none"
)

// Curations are the values an event may be set to in config.yaml.
var Curations = []Curation{Curate, Review, Maintenance, Dedup, None}

// Command is the command line the curation stands for.
func (c Curation) Command() string {
	switch c {
	case Curate:
		return "curator context curate"
	case Review:
		return "curator context review"
	case Maintenance:
		return "curator context curate --maintenance"
	case Dedup:
		return "curator context curate --maintenance --auto-merge"
	}
	return ""
}

// Plan is what each event of one pipeline runs.
type Plan map[Event]Curation

// DefaultPlan is the development loop's: a step done curates the
// reflections, an approval lists the review queue, a phase completed runs
// maintenance, the pipeline completed the deduplication pass.
func DefaultPlan() Plan {
	return Plan{StepDone: Curate, Approval: Review, PhaseCompleted: Maintenance, PipelineCompleted: Dedup}
}

// Config is config.yaml's `pipelines.hooks`: per pipeline type, the
// curation of each event it sets; the events it leaves out keep
// DefaultPlan's.
type Config map[string]map[Event]Curation

// LoadConfig reads `pipelines.hooks` of the store's config.yaml.
func LoadConfig(s *mdstore.Store) (Config, error) {
	out := Config{}
	for name, events := range s.Config.Pipelines.Hooks {
		out[name] = map[Event]Curation{}
		for e, cur := range events {
			ev, c := Event(e), Curation(cur)
			if !known(Events, ev) {
				return nil, fmt.Errorf("config.yaml pipelines.hooks.%s.%s: unknown event (known: %s)", name, ev, joined(Events))
			}
			if !known(Curations, c) {
				return nil, fmt.Errorf("config.yaml pipelines.hooks.%s.%s: unknown curation %q (known: %s)", name, ev, c, joined(Curations))
			}
			out[name][ev] = c
		}
	}
	return out, nil
}

// Plan is what the events of the named pipeline type run.
func (c Config) Plan(pipelineName string) Plan {
	p := DefaultPlan()
	for ev, cur := range c[pipelineName] {
		if cur != "" {
			p[ev] = cur
		}
	}
	return p
}

func known[T ~string](all []T, v T) bool {
	for _, a := range all {
		if a == v {
			return true
		}
	}
	return false
}

func joined[T ~string](all []T) string {
	parts := make([]string, len(all))
	for i, a := range all {
		parts[i] = string(a)
	}
	return strings.Join(parts, ", ")
}
