package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/internal/safepath"
)

// Chunking strategies of a transition.
const (
	ChunkFull        = "full"
	ChunkByUserStory = "by_user_story"
)

// ErrUnknown means a pipeline type, phase or transition that the
// configuration does not define; the message names the known ones.
var ErrUnknown = errors.New("unknown")

// Pipeline is one pipeline type: its phases in order and the rules of each
// handoff.
type Pipeline struct {
	Name        string           `json:"name,omitempty"`
	Description string           `json:"description,omitempty"`
	Phases      []PhaseDef       `json:"phases,omitempty"`
	Transitions []TransitionRule `json:"transitions,omitempty"`
}

// PhaseDef is one phase: who works in it, and what it must produce.
type PhaseDef struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name,omitempty"`
	// Mission is what the agent of this phase is asked to do (brief's Mission).
	Mission string `json:"mission,omitempty"`
	// Steps is "by_user_story" for a phase worked one user story at a time.
	Steps     string         `json:"steps,omitempty"`
	Artifacts []ArtifactRule `json:"artifacts,omitempty"`
}

// ArtifactRule is a file a phase must produce and what makes it valid.
type ArtifactRule struct {
	Type string `json:"type"`
	// Paths are candidates relative to the project folder (globs allowed);
	// the first pattern that matches wins, and among its matches the last in
	// name order (spec-kit numbers features 001-, 002-, …).
	Paths    []string      `json:"paths"`
	MinBytes int64         `json:"min_bytes,omitempty"`
	Sections []SectionRule `json:"sections,omitempty"`
	// Patterns are the texts an HTML artifact (.html, .htm) must hold: one
	// of each rule's AnyOf in the page's visible text (case-insensitive,
	// whole words; tags, attributes, scripts and styles do not count). An
	// HTML artifact is checked against Patterns when there are any, a
	// markdown one always against Sections.
	Patterns []PatternRule `json:"patterns,omitempty"`
	// TaskLists are file names among Paths' (tasks.md) whose file is a
	// task list, as spec-kit writes one: it is checked as a list of tasks
	// instead of against Sections (see IsTaskList).
	TaskLists []string `json:"task_lists,omitempty"`
	// Optional artifacts are validated when present and never block.
	Optional bool `json:"optional,omitempty"`
}

// IsTaskList reports whether the artifact file name (relative to the
// project) is one of the rule's task lists.
func (r ArtifactRule) IsTaskList(name string) bool {
	base := path.Base(filepath.ToSlash(name))
	for _, t := range r.TaskLists {
		if path.Base(t) == base {
			return true
		}
	}
	return false
}

// SectionRule requires one heading among AnyOf (case-insensitive, whole
// words, any level) or, with OrTaskMarkers, at least one task list item
// marked done ([X] or [✓]).
type SectionRule struct {
	AnyOf         []string `json:"any_of"`
	OrTaskMarkers bool     `json:"or_task_markers,omitempty"`
}

// PatternRule requires one text among AnyOf in an HTML artifact.
type PatternRule struct {
	AnyOf []string `json:"any_of"`
}

// TransitionRule is the rule of one handoff: which sections of the earlier
// artifacts go to the next agent and how they are cut.
type TransitionRule struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Include keeps only sections whose heading matches (empty: all);
	// Exclude drops sections (and their subsections); Optional sections are
	// the first dropped when the brief is over budget.
	Include  []string `json:"include,omitempty"`
	Exclude  []string `json:"exclude,omitempty"`
	Optional []string `json:"optional,omitempty"`
	Chunking string   `json:"chunking,omitempty"`
	// Sources are the artifact types curated into the brief (empty: every
	// artifact of the phases before To).
	Sources []string `json:"sources,omitempty"`
}

// Done is the destination that closes a pipeline after its last phase.
const Done = "done"

// Config is the set of pipelines and the budget settings in effect.
type Config struct {
	Settings  Settings             `json:"config"`
	Pipelines map[string]*Pipeline `json:"pipelines"`
}

// Settings are the budget and feature switches (config.yaml `pipelines:`,
// overridden by pipeline-config.json's "config").
type Settings struct {
	ContextWindow        int     `json:"context_window,omitempty" yaml:"context_window"`
	CompressionThreshold float64 `json:"compression_threshold,omitempty" yaml:"compression_threshold"`
	StateBackups         *int    `json:"state_backups,omitempty" yaml:"state_backups"`
	EnableDriftDetection *bool   `json:"enable_drift_detection,omitempty" yaml:"enable_drift_detection"`
	EnableDashboard      *bool   `json:"enable_dashboard,omitempty" yaml:"enable_dashboard"`
}

// DefaultSettings are used where nothing else is configured.
func DefaultSettings() Settings {
	return Settings{ContextWindow: config.DefaultContextWindow, CompressionThreshold: config.DefaultCompressionThreshold}
}

// Merge returns s with the values set in o.
func (s Settings) Merge(o Settings) Settings {
	if o.ContextWindow > 0 {
		s.ContextWindow = o.ContextWindow
	}
	if o.CompressionThreshold > 0 {
		s.CompressionThreshold = o.CompressionThreshold
	}
	if o.StateBackups != nil {
		s.StateBackups = o.StateBackups
	}
	if o.EnableDriftDetection != nil {
		s.EnableDriftDetection = o.EnableDriftDetection
	}
	if o.EnableDashboard != nil {
		s.EnableDashboard = o.EnableDashboard
	}
	return s
}

// Backups is the number of state backups kept (default 5).
func (s Settings) Backups() int {
	if s.StateBackups == nil {
		return config.DefaultStateBackups
	}
	return max(*s.StateBackups, 0)
}

// Drift reports whether drift detection is on (default true).
func (s Settings) Drift() bool { return s.EnableDriftDetection == nil || *s.EnableDriftDetection }

// Dashboard reports whether the dashboard is written (default true).
func (s Settings) Dashboard() bool { return s.EnableDashboard == nil || *s.EnableDashboard }

// LoadConfig returns the built-in pipelines merged with the custom ones and
// overrides of pipeline-config.json at path (absent: built-ins only).
func LoadConfig(path string, base Settings) (*Config, error) {
	cfg := &Config{Settings: DefaultSettings().Merge(base), Pipelines: Builtin()}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return nil, err
	}
	var custom Config
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&custom); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cfg.Settings = cfg.Settings.Merge(custom.Settings)
	for name, p := range custom.Pipelines {
		if p == nil {
			continue
		}
		if err := safepath.CheckID(name); err != nil {
			return nil, fmt.Errorf("%s: pipeline name: %w", path, err)
		}
		merged, err := mergePipeline(name, cfg.Pipelines[name], p)
		if err != nil {
			return nil, fmt.Errorf("%s: pipeline %q: %w", path, name, err)
		}
		cfg.Pipelines[name] = merged
	}
	return cfg, nil
}

// mergePipeline applies a custom definition over a built-in one: phases, when
// given, replace the built-in phases; transitions replace the built-in
// transition with the same from→to and add the others.
func mergePipeline(name string, base, p *Pipeline) (*Pipeline, error) {
	out := &Pipeline{Name: name}
	if base != nil {
		*out = *base
		out.Transitions = append([]TransitionRule(nil), base.Transitions...)
	}
	if p.Description != "" {
		out.Description = p.Description
	}
	if len(p.Phases) > 0 {
		out.Phases = p.Phases
	}
	for _, t := range p.Transitions {
		replaced := false
		for i := range out.Transitions {
			if out.Transitions[i].From == t.From && out.Transitions[i].To == t.To {
				out.Transitions[i], replaced = t, true
			}
		}
		if !replaced {
			out.Transitions = append(out.Transitions, t)
		}
	}
	return out, out.check()
}

// check refuses a pipeline whose transitions name phases it does not have.
func (p *Pipeline) check() error {
	if len(p.Phases) == 0 {
		return errors.New("no phases")
	}
	seen := map[string]bool{}
	for _, ph := range p.Phases {
		if ph.Name == "" || ph.Name == Done || seen[ph.Name] {
			return fmt.Errorf("phase name %q is empty, reserved or repeated", ph.Name)
		}
		if err := safepath.CheckID(ph.Name); err != nil {
			return fmt.Errorf("phase name: %w", err)
		}
		seen[ph.Name] = true
	}
	for _, t := range p.Transitions {
		if !seen[t.From] || (!seen[t.To] && t.To != Done) {
			return fmt.Errorf("transition %s→%s: %w phase (phases: %s)", t.From, t.To, ErrUnknown, strings.Join(p.PhaseNames(), ", "))
		}
		switch t.Chunking {
		case "", ChunkFull, ChunkByUserStory:
		default:
			return fmt.Errorf("transition %s→%s: unknown chunking %q (known: full, by_user_story)", t.From, t.To, t.Chunking)
		}
	}
	return nil
}

// Pipeline returns the named pipeline type, or an error naming the known ones.
func (c *Config) Pipeline(name string) (*Pipeline, error) {
	if p, ok := c.Pipelines[name]; ok {
		return p, nil
	}
	names := make([]string, 0, len(c.Pipelines))
	for n := range c.Pipelines {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("%w pipeline type %q (known: %s)", ErrUnknown, name, strings.Join(names, ", "))
}

// PhaseNames lists the phases in order.
func (p *Pipeline) PhaseNames() []string {
	out := make([]string, len(p.Phases))
	for i, ph := range p.Phases {
		out[i] = ph.Name
	}
	return out
}

// Phase returns the 1-based number and definition of a phase, or an error
// naming the known phases.
func (p *Pipeline) Phase(name string) (int, *PhaseDef, error) {
	for i := range p.Phases {
		if p.Phases[i].Name == name {
			return i + 1, &p.Phases[i], nil
		}
	}
	return 0, nil, fmt.Errorf("%w phase %q in pipeline %s (known: %s)", ErrUnknown, name, p.Name, strings.Join(p.PhaseNames(), ", "))
}

// Transition returns the rule of the handoff from→to. A transition from a
// step-wise phase to itself (the next step) uses the rule that leads into it.
func (p *Pipeline) Transition(from, to string) (*TransitionRule, error) {
	if _, _, err := p.Phase(from); err != nil {
		return nil, err
	}
	if to != Done {
		if _, _, err := p.Phase(to); err != nil {
			return nil, err
		}
	}
	for i := range p.Transitions {
		if p.Transitions[i].From == from && p.Transitions[i].To == to {
			return &p.Transitions[i], nil
		}
	}
	if from == to {
		for i := range p.Transitions {
			if p.Transitions[i].To == to {
				return &p.Transitions[i], nil
			}
		}
	}
	if to == Done && p.Phases[len(p.Phases)-1].Name == from {
		return &TransitionRule{From: from, To: Done}, nil
	}
	var known []string
	for _, t := range p.Transitions {
		known = append(known, t.From+"→"+t.To)
	}
	known = append(known, p.Phases[len(p.Phases)-1].Name+"→"+Done)
	return nil, fmt.Errorf("%w transition %s→%s in pipeline %s (known: %s)", ErrUnknown, from, to, p.Name, strings.Join(known, ", "))
}
