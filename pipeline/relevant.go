package pipeline

import (
	"fmt"
	"strings"
)

// Kinds of relevant context.
const (
	RelevantBullet = "bullet"
	RelevantMemory = "memory"
)

// RelevantItem is one playbook bullet or confirmed memory chosen for a
// brief, and why: its similarity to the step's text and the words they
// share.
type RelevantItem struct {
	// Kind is RelevantBullet or RelevantMemory.
	Kind string `json:"kind"`
	ID   string `json:"id"`
	// Group is a bullet's category, a memory's type.
	Group string `json:"group"`
	Text  string `json:"text"`
	// Helpful and Harmful are a bullet's counters; Confidence a memory's
	// content confidence (1–5).
	Helpful    int      `json:"helpful,omitempty"`
	Harmful    int      `json:"harmful,omitempty"`
	Confidence int      `json:"confidence,omitempty"`
	Score      float64  `json:"score"`
	Words      []string `json:"matched_words"`
}

// Line is the item as the brief lists it.
func (it RelevantItem) Line() string {
	counters := fmt.Sprintf("helpful %d, harmful %d", it.Helpful, it.Harmful)
	label := "`" + it.ID + "`"
	if it.Kind == RelevantMemory {
		counters = fmt.Sprintf("confidence %d", it.Confidence)
		label = "memory `" + it.ID + "`"
	}
	why := fmt.Sprintf("score %.3f", it.Score)
	if len(it.Words) > 0 {
		why += ": " + strings.Join(it.Words, ", ")
	}
	return fmt.Sprintf("- **%s** (%s; %s; %s) %s", label, it.Group, counters, why, strings.Join(strings.Fields(it.Text), " "))
}

// RelevantOptions say what relevant context a brief gets.
type RelevantOptions struct {
	// Off leaves the section out.
	Off bool `json:"off,omitempty"`
	// Bullets and Memories are the most of each (0: none of that kind).
	Bullets  int `json:"bullets"`
	Memories int `json:"memories"`
	// Categories limit the bullets, MemoryTypes the memories (none: all).
	Categories  []string `json:"categories,omitempty"`
	MemoryTypes []string `json:"memory_types,omitempty"`
}

// ContextSource finds the playbook bullets and memories most relevant to
// a text, best first within each kind (package pipeline/hooks has one
// over the store).
type ContextSource interface {
	Relevant(text string, opts RelevantOptions) ([]RelevantItem, error)
}

// RelevantContext is what a transition's brief gets relevant context
// from: the source and the options of this transition.
type RelevantContext struct {
	Source  ContextSource
	Options RelevantOptions
}

// relevantText is what the relevant context is scored against: the
// phase's mission and the current user story, or, in a phase that is not
// step-wise, the headings of the curated sections.
func relevantText(mission string, ex []Excerpt) string {
	parts := []string{mission}
	for _, e := range ex {
		if e.Kind == KindCurrentStory {
			return strings.Join(append(parts, e.Text), "\n")
		}
	}
	for _, e := range ex {
		if e.Title != "" {
			parts = append(parts, e.Title)
		}
	}
	return strings.Join(parts, "\n")
}

// relevant is the relevant context of a brief from rc (nil: none), and
// whether the brief gets the section at all.
func relevant(rc *RelevantContext, mission string, ex []Excerpt) (bool, []RelevantItem, error) {
	if rc == nil || rc.Source == nil || rc.Options.Off || rc.Options.Bullets+rc.Options.Memories == 0 {
		return false, nil, nil
	}
	items, err := rc.Source.Relevant(relevantText(mission, ex), rc.Options)
	return err == nil, items, err
}

// cutRelevant is the first level of the ladder: it leaves out the
// items from the end (the memories, then the bullets, each kind's least
// relevant first) until the tokens over the budget are gone, or every
// item is.
func cutRelevant(d *BriefData, over int) {
	for n := len(d.Relevant); n > 0 && over > 0; n-- {
		over -= EstimateTokens(d.Relevant[n-1].Line() + "\n")
		d.Relevant = d.Relevant[:n-1]
		d.RelevantLeftOut++
	}
}

// RelevantIDs are the ids of the relevant context a brief includes, as
// its Accumulated State lists them: bullets by id, memories as "memory
// ID".
func (d *BriefData) RelevantIDs() []string {
	out := make([]string, len(d.Relevant))
	for i, it := range d.Relevant {
		out[i] = "`" + it.ID + "`"
		if it.Kind == RelevantMemory {
			out[i] = "memory `" + it.ID + "`"
		}
	}
	return out
}
