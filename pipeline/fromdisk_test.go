package pipeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A first transition in the middle of a pipeline (no state yet) takes the
// earlier phases from their artifacts on disk: they are completed, with
// their artifacts recorded, not left pending.
func TestFirstTransitionMidPipeline(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", kitSpec)
	f.write("completion-report.md", completionReport)
	r, err := f.transition("implementer", "reviewer", 0)
	if err != nil {
		t.Fatal(err)
	}
	st := f.state()
	spec := st.Phases[0]
	if spec.Status != StatusCompleted || spec.CompletedAt == "" || len(spec.Artifacts) != 1 || spec.Artifacts[0].Path != "spec.md" || spec.Artifacts[0].ValidatedAt == "" {
		t.Fatalf("spec-writer: %+v", spec)
	}
	if st.Phases[1].Status != StatusCompleted || st.Phases[2].Status != StatusInProgress || st.CurrentPhase.PhaseName != "reviewer" {
		t.Fatalf("phases: %s %s, at %s", st.Phases[1].Status, st.Phases[2].Status, st.CurrentPhase.PhaseName)
	}
	if !st.Reconstructed {
		t.Error("the state does not say it was reconstructed")
	}
	if !strings.Contains(strings.Join(r.Decisions, "\n"), "spec-writer") {
		t.Errorf("decisions do not name the reconstructed phase: %q", r.Decisions)
	}
	// the reviewer's brief lists the spec, found on disk, under References
	if b := f.brief(r.BriefPath); !regexp.MustCompile("(?m)^- \\*\\*Spec\\*\\*: `spec.md`").MatchString(b) {
		t.Errorf("brief references:\n%s", b[strings.Index(b, "## References"):])
	}

	// An earlier phase whose artifacts do not validate stays pending, with
	// a warning; the transition itself goes ahead.
	g := newFixture(t, 5)
	g.write("spec.md", "# Spec\n")
	g.write("completion-report.md", completionReport)
	r, err = g.transition("implementer", "reviewer", 0)
	if err != nil {
		t.Fatal(err)
	}
	if st := g.state(); st.Phases[0].Status != StatusPending || st.Phases[1].Status != StatusCompleted {
		t.Fatalf("phases: %s %s", st.Phases[0].Status, st.Phases[1].Status)
	}
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "spec-writer") {
		t.Errorf("no warning about spec-writer: %q", r.Warnings)
	}
}

// A custom pipeline is recorded as pipeline_type custom, with its name.
func TestCustomPipelineRecorded(t *testing.T) {
	f := newFixture(t, 5)
	cfg := `{"pipelines": {"docs": {"phases": [{"name": "writer", "artifacts": [{"type": "doc", "paths": ["doc.md"], "sections": [{"any_of": ["Overview"]}]}]}, {"name": "editor"}],
	    "transitions": [{"from": "writer", "to": "editor"}]}}}`
	os.WriteFile(filepath.Join(f.env.Home.Dir, ConfigName), []byte(cfg), 0o644)
	c, err := LoadConfig(filepath.Join(f.env.Home.Dir, ConfigName), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	f.env.Config = c
	f.write("doc.md", "# Doc\n\n## Overview\n\nWhat the docs cover.\n")
	r, err := f.env.transition(TransitionRequest{Project: "shop", Pipeline: "docs", From: "writer", To: "editor", ProjectPath: f.project})
	if err != nil {
		t.Fatal(err)
	}
	f.apply(r)
	raw, _ := os.ReadFile(filepath.Join(f.env.Home.Dir, StateName("shop")))
	for _, want := range []string{`"pipeline_type": "custom"`, `"pipeline_name": "docs"`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("state lacks %s:\n%s", want, raw)
		}
	}
	if b := f.brief(r.BriefPath); !strings.Contains(b, "**Pipeline**: custom (docs) |") {
		t.Errorf("brief header: %s", b[:200])
	}
	// the state is read back as the docs pipeline
	if _, err := f.env.resume(ProjectRequest{Project: "shop"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.env.transition(TransitionRequest{Project: "shop", Pipeline: "docs", From: "writer", To: "editor"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.env.transition(TransitionRequest{Project: "shop", Pipeline: "sdd", From: "spec-writer", To: "implementer"}); err == nil || !strings.Contains(err.Error(), "docs") {
		t.Errorf("another type accepted: %v", err)
	}
	// a state that names the custom pipeline as its type is read as it,
	// and rewritten as type custom with its name
	raw, _ = os.ReadFile(filepath.Join(f.env.Home.Dir, StateName("shop")))
	old := strings.Replace(strings.Replace(string(raw), `"pipeline_type": "custom"`, `"pipeline_type": "docs"`, 1), `"pipeline_name": "docs",`, "", 1)
	if strings.Contains(old, "custom") || strings.Contains(old, "pipeline_name") {
		t.Fatalf("old-form state:\n%s", old)
	}
	os.WriteFile(filepath.Join(f.env.Home.Dir, StateName("shop")), []byte(old), 0o644)
	r, err = f.env.resume(ProjectRequest{Project: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	f.apply(r)
	if st := f.state(); st.PipelineType != PipelineCustom || st.CustomName != "docs" {
		t.Errorf("old state rewritten as %q %q", st.PipelineType, st.CustomName)
	}
	// a built-in pipeline keeps its own type, without a name
	g := newFixture(t, 5)
	g.write("spec.md", kitSpec)
	if _, err := g.transition("spec-writer", "implementer", 0); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(filepath.Join(g.env.Home.Dir, StateName("shop")))
	if !strings.Contains(string(raw), `"pipeline_type": "sdd"`) || strings.Contains(string(raw), "pipeline_name") {
		t.Errorf("built-in state:\n%.300s", raw)
	}
}

// The brief's References carry the template's labels: the spec and the
// previous phase's artifact, the state and the dashboard.
func TestBriefReferenceLabels(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", kitSpec)
	if _, err := f.transition("spec-writer", "implementer", 0); err != nil {
		t.Fatal(err)
	}
	f.write("completion-report.md", completionReport)
	r, err := f.transition("implementer", "reviewer", 0)
	if err != nil {
		t.Fatal(err)
	}
	b := f.brief(r.BriefPath)
	refs := b[strings.Index(b, "## References"):]
	for _, re := range []string{
		"(?m)^- \\*\\*Spec\\*\\*: `spec.md` — .*spec.md$",
		"(?m)^- \\*\\*Previous phase artifact\\*\\*: `completion-report.md` — .*completion-report.md$",
		"(?m)^- \\*\\*Pipeline state\\*\\*: .*pipeline-state-shop.json$",
		"(?m)^- \\*\\*Dashboard\\*\\*: .*dashboard-shop.html$",
	} {
		if !regexp.MustCompile(re).MatchString(refs) {
			t.Errorf("references do not match %s:\n%s", re, refs)
		}
	}
}
