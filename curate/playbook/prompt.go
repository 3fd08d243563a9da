package playbook

import (
	"bytes"
	"context"
	"io"
	"sort"
	"strings"
	"text/template"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/templates"
)

// PromptTemplate is the curation prompt's file in templates.FS.
const PromptTemplate = "curation_prompt.md.tmpl"

// NeighbourFloor is the least similarity of a bullet shown as a neighbour.
const NeighbourFloor = 0.3

// promptNeighbours is how many bullets the prompt shows near each lesson.
const promptNeighbours = 5

// PromptNeighbour is a bullet near a lesson.
type PromptNeighbour struct {
	ID, Category, Content string
	Score                 float64
	Helpful, Harmful      int
}

// PromptLesson is a lesson and its nearest bullets.
type PromptLesson struct {
	Index      int
	Category   string
	Confidence float64
	Content    string
	Neighbours []PromptNeighbour
}

// PromptData fills the curation prompt.
type PromptData struct {
	Reflection *mdstore.Reflection
	Body       string
	Lessons    []PromptLesson
	Stats      Stats
	Categories []struct {
		Name  string
		Count int
	}
	Threshold      float64
	MergeFloor     float64
	MinConfidence  float64
	NeighbourFloor float64
}

// BuildPrompt gathers the reflection's lessons and, for each, the five
// active bullets most similar to it (highest first, then by id) with a
// similarity of at least NeighbourFloor.
func BuildPrompt(pb *Playbook, r *mdstore.Reflection, set Settings) PromptData {
	d := PromptData{Reflection: r, Body: strings.TrimSpace(r.Body), Stats: StatsOf(pb), Threshold: set.Threshold,
		MergeFloor: MergeFloor, MinConfidence: set.MinConfidence, NeighbourFloor: NeighbourFloor}
	for i, l := range r.Lessons {
		pl := PromptLesson{Index: i + 1, Category: NormCategory(l.Category), Confidence: l.Conf(), Content: strings.TrimSpace(l.Content)}
		// The five highest: scored from the highest bound down, so a
		// large playbook reads the texts of a few candidates only.
		ms := pb.Matcher.Top(l.Content, NeighbourFloor, promptNeighbours, nil)
		if len(ms) > promptNeighbours {
			ms = ms[:promptNeighbours]
		}
		for _, m := range ms {
			b := pb.Bullet(m.ID)
			pl.Neighbours = append(pl.Neighbours, PromptNeighbour{ID: b.ID, Category: b.Category, Content: strings.Join(strings.Fields(b.Content), " "),
				Score: m.Score, Helpful: b.HelpfulCount, Harmful: b.HarmfulCount})
		}
		d.Lessons = append(d.Lessons, pl)
	}
	for name, n := range d.Stats.ByCategory {
		d.Categories = append(d.Categories, struct {
			Name  string
			Count int
		}{name, n})
	}
	sort.Slice(d.Categories, func(i, j int) bool { return d.Categories[i].Name < d.Categories[j].Name })
	return d
}

// RenderPrompt writes the curation prompt.
func RenderPrompt(w io.Writer, d PromptData) error {
	t, err := template.New(PromptTemplate).Funcs(template.FuncMap{"join": strings.Join}).ParseFS(templates.FS, PromptTemplate)
	if err != nil {
		return err
	}
	return t.Execute(w, d)
}

// PromptRequest asks for the curation prompt of a pending reflection
// (`context prompt`, the curate_reflection prompt).
type PromptRequest struct {
	// ReflectionID is the pending reflection ("" the oldest).
	ReflectionID string
	Settings     Settings
}

// PromptReport is `context prompt --json`: the prompt and the reflection
// it is for.
type PromptReport struct {
	ReflectionID string `json:"reflection_id"`
	Prompt       string `json:"prompt"`
	// Notes are said beside the prompt (the engine fell back to lexical).
	Notes []string `json:"-"`
}

// Prompt renders the curation prompt for a pending reflection and its
// nearest bullets. No pending reflection (or not the one asked for) is a
// refused request; an engine that fails while it finds the nearest
// bullets stops it.
func Prompt(_ context.Context, s *mdstore.Store, req PromptRequest) (*PromptReport, error) {
	if err := checkID("reflection_id", req.ReflectionID); err != nil {
		return nil, err
	}
	pending, err := s.ListReflections("pending")
	if err != nil {
		return nil, err
	}
	var r *mdstore.Reflection
	for _, x := range pending.Reflections {
		if req.ReflectionID == "" || x.ID == req.ReflectionID {
			r = x
			break
		}
	}
	if r == nil {
		if req.ReflectionID != "" {
			return nil, refuse.Requestf("no pending reflection %q", req.ReflectionID)
		}
		return nil, refuse.Requestf("no pending reflection")
	}
	pb, e, _, err := Read(s, true, s.Now())
	if err != nil {
		return nil, err
	}
	defer s.WriteCaches()
	data := BuildPrompt(pb, r, req.Settings)
	if err := CheckEngine(e); err != nil {
		return nil, err
	}
	rep := &PromptReport{ReflectionID: r.ID}
	if note := EngineNote(e); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	var buf bytes.Buffer
	if err := RenderPrompt(&buf, data); err != nil {
		return nil, err
	}
	rep.Prompt = buf.String()
	return rep, nil
}
