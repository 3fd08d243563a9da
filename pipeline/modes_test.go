package pipeline

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const completionReport = `# Completion report

## Summary

Stories one and two are implemented with tests, all green.

## User Stories Implemented

- [X] User Story 1
- [X] User Story 2

## Key Decisions

- Carts live on the server.

## Files Modified

- ` + "`cart.go`" + `

## Test Results

12 tests pass.
`

type fixture struct {
	t       *testing.T
	env     *Env
	project string
	clock   time.Time
}

func newFixture(t *testing.T, backups int) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, project: filepath.Join(root, "proj"), clock: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
	home := filepath.Join(root, "home")
	os.MkdirAll(home, 0o755)
	os.MkdirAll(f.project, 0o755)
	cfg, err := LoadConfig(filepath.Join(home, ConfigName), Settings{StateBackups: &backups})
	if err != nil {
		t.Fatal(err)
	}
	f.env = &Env{Home: Home{Dir: home}, Config: cfg, Now: func() time.Time { f.clock = f.clock.Add(time.Minute); return f.clock },
		Dashboard: func(st *State, r *Report) ([]byte, error) { return []byte("<html>" + st.UpdatedAt + "</html>"), nil }}
	return f
}

func (f *fixture) write(name, content string) {
	f.t.Helper()
	p := filepath.Join(f.project, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// apply writes a report's files as the CLI does without a store.
func (f *fixture) apply(r *Report) {
	f.t.Helper()
	for _, file := range r.Files {
		p, err := f.env.Home.Path(file.Name)
		if err != nil {
			f.t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, file.Data, 0o644); err != nil {
			f.t.Fatal(err)
		}
		if file.From != "" {
			from, _ := f.env.Home.Path(file.From)
			os.Remove(from)
		}
	}
}

func (f *fixture) transition(from, to string, step int) (*Report, error) {
	f.t.Helper()
	r, err := f.env.transition(TransitionRequest{Project: "shop", Pipeline: "sdd", From: from, To: to, Step: step, ProjectPath: f.project})
	if r != nil {
		f.apply(r)
	}
	return r, err
}

func (f *fixture) state() *State {
	f.t.Helper()
	data, err := os.ReadFile(filepath.Join(f.env.Home.Dir, StateName("shop")))
	if err != nil {
		f.t.Fatal(err)
	}
	st, err := ParseState(data)
	if err != nil {
		f.t.Fatal(err)
	}
	return st
}

func TestTransitionLifecycle(t *testing.T) {
	f := newFixture(t, 5)
	f.write("specs/001-shop/spec.md", pad(specWithStories(3), 600)+"\n## Success Criteria\n- fast\n")
	r, err := f.transition("spec-writer", "implementer", 0)
	if err != nil {
		t.Fatal(err)
	}
	st := f.state()
	if st.CurrentPhase.PhaseName != "implementer" || st.CurrentPhase.StepNumber != 1 || st.Phases[0].Status != StatusCompleted {
		t.Fatalf("after the first transition: %+v", st.CurrentPhase)
	}
	if a := st.Phases[0].Artifacts; len(a) != 1 || a[0].Path != "specs/001-shop/spec.md" || len(a[0].SHA256) != 64 || a[0].ValidatedAt == "" {
		t.Fatalf("artifacts: %+v", a)
	}
	if len(st.Phases[1].Steps) != 3 || st.Phases[1].Steps[0].Status != StatusInProgress {
		t.Fatalf("steps: %+v", st.Phases[1].Steps)
	}
	if r.BriefPath != "context-briefs/shop/2-implementer-step-1.md" || st.UpdatedAt == "" {
		t.Fatalf("brief %s", r.BriefPath)
	}
	first := st.UpdatedAt
	if _, err := f.transition("spec-writer", "implementer", 2); err != nil {
		t.Fatal(err)
	}
	st = f.state()
	if st.UpdatedAt == first || st.Phases[1].Steps[0].Status != StatusCompleted || st.CurrentPhase.StepNumber != 2 {
		t.Fatalf("step 2: updated %s, steps %+v", st.UpdatedAt, st.Phases[1].Steps)
	}
	brief, _ := os.ReadFile(filepath.Join(f.env.Home.Dir, "context-briefs/shop/2-implementer-step-2.md"))
	for _, want := range []string{"## Context Budget", "## Mission", "## Curated Context", "## Accumulated State", "## Warnings & Known Issues", "## References", "- ✓ User Story 1", "### User Story 2", "1 later user story is left out"} {
		if !strings.Contains(string(brief), want) {
			t.Errorf("brief lacks %q", want)
		}
	}
	if strings.Contains(string(brief), "### User Story 3") || strings.Contains(string(brief), "I thought hard") {
		t.Error("brief carries a later story or a reasoning trace")
	}
	// The implementer hands over to the reviewer.
	f.write("completion-report.md", completionReport)
	_, err = f.transition("implementer", "reviewer", 0)
	if err != nil {
		t.Fatal(err)
	}
	st = f.state()
	if st.Phases[1].Status != StatusCompleted || st.CurrentPhase.PhaseName != "reviewer" || len(st.AccumulatedContext.FilesModified) != 1 ||
		st.AccumulatedContext.KeyDecisions[0] != "Carts live on the server." {
		t.Fatalf("after implementer: %+v %+v", st.CurrentPhase, st.AccumulatedContext)
	}
	// Drift: the spec changes after it was validated.
	f.write("specs/001-shop/spec.md", pad(specWithStories(3), 700)+"\n## Success Criteria\n- faster\n")
	s, err := f.env.status(ProjectRequest{Project: "shop"})
	if err != nil || len(s.Drift) != 1 || s.Drift[0].Path != "specs/001-shop/spec.md" || s.Drift[0].Change != "modified" {
		t.Fatalf("drift: %+v %v", s.Drift, err)
	}
	// Touching a file without changing it is no drift.
	os.Chtimes(filepath.Join(f.project, "completion-report.md"), time.Now(), time.Now().Add(time.Hour))
	if s, _ := f.env.status(ProjectRequest{Project: "shop"}); len(s.Drift) != 1 {
		t.Errorf("a touched file counted as drift: %+v", s.Drift)
	}
	rf, err := f.env.refresh(ProjectRequest{Project: "shop"})
	if err != nil || !strings.Contains(string(rf.Files[0].Data), "Drift: specs/001-shop/spec.md") {
		t.Fatalf("refresh: %v", err)
	}
	for _, file := range rf.Files {
		if strings.HasPrefix(file.Name, "pipeline-state") {
			t.Error("refresh changed the state")
		}
	}
	f.write("review.md", pad("# Review\n## Summary\nGood.\n## Verdict\nApproved.\n", 250))
	if _, err := f.transition("reviewer", Done, 0); err != nil {
		t.Fatal(err)
	}
	if st := f.state(); st.OverallStatus != OverallCompleted || st.Phases[2].Status != StatusCompleted {
		t.Errorf("done: %s", st.OverallStatus)
	}
}

func TestTransitionBlocked(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", pad("# Spec\n## User Stories\n### User Story 1\nx\n", 600))
	r, err := f.transition("spec-writer", "implementer", 0)
	if !errors.Is(err, ErrBlocked) || r == nil {
		t.Fatalf("err = %v", err)
	}
	for _, m := range []string{"Functional Requirements", "Success Criteria"} {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("error does not name %s: %v", m, err)
		}
	}
	st := f.state()
	if st.Phases[0].Status != StatusBlocked || st.OverallStatus != OverallBlocked || len(st.Phases[0].Blockers) != 2 {
		t.Errorf("blocked state: %+v", st.Phases[0])
	}
	if st.Phases[1].Status != StatusPending {
		t.Errorf("implementer started though blocked")
	}
	// Fixed, it goes through and the blockers are gone.
	f.write("spec.md", pad(validSpec, 600))
	if _, err := f.transition("spec-writer", "implementer", 0); err != nil {
		t.Fatal(err)
	}
	if st := f.state(); len(st.Phases[0].Blockers) != 0 || st.OverallStatus != OverallInProgress {
		t.Errorf("blockers kept: %+v", st.Phases[0].Blockers)
	}
}

func TestUnknownNames(t *testing.T) {
	f := newFixture(t, 5)
	for _, req := range []TransitionRequest{
		{Project: "shop", Pipeline: "nope", From: "spec-writer", To: "implementer"},
		{Project: "shop", Pipeline: "sdd", From: "writer", To: "implementer"},
		{Project: "shop", Pipeline: "sdd", From: "spec-writer", To: "reviewer"},
	} {
		_, err := f.env.transition(req)
		if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "known:") {
			t.Errorf("%+v: %v", req, err)
		}
	}
}

func TestBackupsRotate(t *testing.T) {
	f := newFixture(t, 2)
	f.write("spec.md", pad(validSpec, 600))
	var states []string
	for i := 1; i <= 4; i++ {
		if _, err := f.transition("spec-writer", "implementer", min(i, 2)); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(f.env.Home.Dir, StateName("shop")))
		states = append(states, string(data))
	}
	for n, want := range map[int]string{1: states[2], 2: states[1]} {
		got, err := os.ReadFile(filepath.Join(f.env.Home.Dir, BackupName("shop", n)))
		if err != nil || string(got) != want {
			t.Errorf(".bak.%d is not the state %d writes ago (%v)", n, n, err)
		}
	}
	if _, err := os.Stat(filepath.Join(f.env.Home.Dir, BackupName("shop", 3))); err == nil {
		t.Error(".bak.3 exists with state_backups: 2")
	}
}

// Written in the order they come, as they are outside a store, a report's
// files never lose the state they replace: a crash between any two writes
// leaves it in the state file or in .bak.1.
func TestBackupBeforeState(t *testing.T) {
	f := newFixture(t, 3)
	f.write("spec.md", pad(validSpec, 600))
	for i := 1; i <= 4; i++ {
		if _, err := f.transition("spec-writer", "implementer", min(i, 2)); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) string {
		data, _ := os.ReadFile(filepath.Join(f.env.Home.Dir, name))
		return string(data)
	}
	old := read(StateName("shop"))
	f.write("spec.md", pad(validSpec, 700))
	r, err := f.env.recordDrift("shop")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range r.Files {
		p, err := f.env.Home.Path(file.Name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, file.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if read(StateName("shop")) != old && read(BackupName("shop", 1)) != old {
			t.Fatalf("with %s written, the state replaced is in neither the state file nor .bak.1", file.Name)
		}
	}
	if read(BackupName("shop", 1)) != old || read(StateName("shop")) == old {
		t.Fatal("after every write, .bak.1 is not the state replaced")
	}
}

func TestUnknownFieldsKept(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", pad(validSpec, 600))
	if _, err := f.transition("spec-writer", "implementer", 0); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(f.env.Home.Dir, StateName("shop"))
	var m map[string]any
	data, _ := os.ReadFile(p)
	json.Unmarshal(data, &m)
	m["seed_field"] = map[string]any{"a": 1.0}
	m["phases"].([]any)[0].(map[string]any)["reviewer_notes"] = "keep me"
	m["current_phase"].(map[string]any)["eta"] = "soon"
	data, _ = json.Marshal(m)
	os.WriteFile(p, data, 0o644)
	if _, err := f.transition("spec-writer", "implementer", 2); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(p)
	for _, want := range []string{`"seed_field": {`, `"reviewer_notes": "keep me"`, `"eta": "soon"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("lost %s", want)
		}
	}
}

func TestCorruptStateKeptAside(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", pad(validSpec, 600))
	if _, err := f.transition("spec-writer", "implementer", 0); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(f.env.Home.Dir, StateName("shop"))
	os.WriteFile(p, []byte(`{"pipeline_id": "trunc`), 0o644)
	stopped := f.clock.Add(time.Minute) // both corruptions found in one second
	f.env.Now = func() time.Time { return stopped }
	r, err := f.env.resume(ProjectRequest{Project: "shop", ProjectPath: f.project})
	if err != nil {
		t.Fatal(err)
	}
	f.apply(r)
	aside, _ := filepath.Glob(p + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("corrupt file not kept aside: %v", aside)
	}
	if data, _ := os.ReadFile(aside[0]); string(data) != `{"pipeline_id": "trunc` {
		t.Errorf("corrupt content changed: %q", data)
	}
	st := f.state()
	if !st.Reconstructed || st.Phases[0].Status != StatusCompleted || st.CurrentPhase.PhaseName != "implementer" {
		t.Errorf("reconstructed: %+v", st.CurrentPhase)
	}
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "corrupt") {
		t.Errorf("not reported: %q", r.Warnings)
	}
	// A second corrupt state, in the same second, is kept beside the first.
	os.WriteFile(p, []byte(`{"B": `), 0o644)
	r, err = f.env.resume(ProjectRequest{Project: "shop", ProjectPath: f.project})
	if err != nil {
		t.Fatal(err)
	}
	f.apply(r)
	aside, _ = filepath.Glob(p + ".corrupt-*")
	kept := map[string]bool{}
	for _, a := range aside {
		data, _ := os.ReadFile(a)
		kept[string(data)] = true
	}
	if len(aside) != 2 || !kept[`{"pipeline_id": "trunc`] || !kept[`{"B": `] {
		t.Errorf("the second corrupt state replaced the first: %v %v", aside, kept)
	}
}

func TestRestart(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", pad(validSpec, 600))
	f.write("completion-report.md", completionReport)
	f.transition("spec-writer", "implementer", 0)
	f.transition("implementer", "reviewer", 0)
	before, _ := os.ReadFile(filepath.Join(f.project, "spec.md"))
	r, err := f.env.restart(ProjectRequest{Project: "shop"}, "implementer")
	if err != nil {
		t.Fatal(err)
	}
	f.apply(r)
	st := f.state()
	if st.Phases[0].Status != StatusCompleted || st.Phases[1].Status != StatusPending || st.Phases[2].Status != StatusPending ||
		st.CurrentPhase.PhaseName != "implementer" {
		t.Fatalf("restart: %s %s %s", st.Phases[0].Status, st.Phases[1].Status, st.Phases[2].Status)
	}
	for _, a := range st.Phases[1].Artifacts {
		if a.ValidatedAt != "" {
			t.Error("validation kept after restart")
		}
	}
	if after, _ := os.ReadFile(filepath.Join(f.project, "spec.md")); string(after) != string(before) {
		t.Error("restart touched an artifact")
	}
	if _, err := f.env.restart(ProjectRequest{Project: "shop"}, "nope"); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown phase: %v", err)
	}
}

func TestReconstruct(t *testing.T) {
	f := newFixture(t, 5)
	// Nothing on disk.
	r, err := f.env.reconstruct(ProjectRequest{Project: "shop", ProjectPath: f.project})
	if err != nil || r.State.ReconstructionConfidence > 0.3 || r.State.CurrentPhase.PhaseName != "spec-writer" {
		t.Fatalf("empty: %v %+v", err, r.State)
	}
	// spec and completion report: reviewer is next, full confidence.
	f.write("spec.md", pad(validSpec, 600))
	f.write("completion-report.md", completionReport)
	r, err = f.env.reconstruct(ProjectRequest{Project: "shop", ProjectPath: f.project})
	if err != nil {
		t.Fatal(err)
	}
	if st := r.State; st.PipelineType != "sdd" || st.CurrentPhase.PhaseName != "reviewer" || st.Phases[1].Status != StatusCompleted ||
		st.ReconstructionConfidence < 0.99 || !st.Reconstructed {
		t.Fatalf("reconstructed: %s at %s, confidence %.2f", st.PipelineType, st.CurrentPhase.PhaseName, st.ReconstructionConfidence)
	}
	f.apply(r)
	// A gap (the spec is gone) lowers the confidence, and never downgrades
	// what the old state says is completed.
	os.Remove(filepath.Join(f.project, "spec.md"))
	r, err = f.env.reconstruct(ProjectRequest{Project: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	if st := r.State; st.Phases[0].Status != StatusCompleted || st.ReconstructionConfidence >= 1 {
		t.Errorf("downgraded or too confident: %s %.2f", st.Phases[0].Status, st.ReconstructionConfidence)
	}
	// Another pipeline type is inferred from its artifacts.
	g := newFixture(t, 5)
	g.write("bug-report.md", pad("# Bug\n## Steps to Reproduce\n1. go\n## Expected Behavior\nok\n## Actual Behavior\ncrash\n", 300))
	r, err = g.env.reconstruct(ProjectRequest{Project: "bug", ProjectPath: g.project})
	if err != nil || r.State.PipelineType != "debug" || r.State.CurrentPhase.PhaseName != "fixer" {
		t.Errorf("debug inferred: %v %+v", err, r.State.CurrentPhase)
	}
}

func TestRefreshNeedsState(t *testing.T) {
	f := newFixture(t, 5)
	if _, err := f.env.refresh(ProjectRequest{Project: "shop"}); !errors.Is(err, ErrNoState) {
		t.Errorf("refresh without state: %v", err)
	}
}

func TestPathsRefused(t *testing.T) {
	f := newFixture(t, 5)
	for _, name := range []string{"../x", "a/b", "..", ".hidden", "", "a b"} {
		if _, err := f.env.transition(TransitionRequest{Project: name, Pipeline: "sdd", From: "spec-writer", To: "implementer", ProjectPath: f.project}); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("project %q: %v", name, err)
		}
	}
	if _, _, err := ProjectFile(f.project, "../outside.md"); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("../: %v", err)
	}
	if _, _, err := ProjectFile(f.project, "/etc/passwd"); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("absolute: %v", err)
	}
	if _, err := f.env.Home.Path("../../etc/passwd"); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("home escape: %v", err)
	}
	// A spec.md that is a symlink out of the project is refused.
	outside := filepath.Join(t.TempDir(), "spec.md")
	os.WriteFile(outside, []byte(pad(validSpec, 600)), 0o644)
	os.Symlink(outside, filepath.Join(f.project, "spec.md"))
	if _, err := f.transition("spec-writer", "implementer", 0); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("symlink out: %v", err)
	}
}

func TestCustomConfig(t *testing.T) {
	f := newFixture(t, 5)
	cfg := `{"config": {"context_window": 1000},
	  "pipelines": {"docs": {"phases": [{"name": "writer", "artifacts": [{"type": "doc", "paths": ["doc.md"], "sections": [{"any_of": ["Overview"]}]}]}, {"name": "editor"}],
	    "transitions": [{"from": "writer", "to": "editor"}]},
	    "sdd": {"transitions": [{"from": "spec-writer", "to": "implementer", "chunking": "full"}]}}}`
	os.WriteFile(filepath.Join(f.env.Home.Dir, ConfigName), []byte(cfg), 0o644)
	c, err := LoadConfig(filepath.Join(f.env.Home.Dir, ConfigName), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Settings.ContextWindow != 1000 || c.Settings.CompressionThreshold != 0.6 {
		t.Errorf("settings %+v", c.Settings)
	}
	if tr, _ := c.Pipelines["sdd"].Transition("spec-writer", "implementer"); tr.Chunking != ChunkFull || len(c.Pipelines["sdd"].Transitions) != 3 {
		t.Errorf("override: %+v", tr)
	}
	if _, err := c.Pipeline("docs"); err != nil {
		t.Error(err)
	}
	os.WriteFile(filepath.Join(f.env.Home.Dir, ConfigName), []byte(`{"pipelines": {"x": {"phases": [{"name": "a"}], "transitions": [{"from": "a", "to": "zz"}]}}}`), 0o644)
	if _, err := LoadConfig(filepath.Join(f.env.Home.Dir, ConfigName), Settings{}); err == nil || !strings.Contains(err.Error(), "known") {
		t.Errorf("bad transition accepted: %v", err)
	}
	os.WriteFile(filepath.Join(f.env.Home.Dir, ConfigName), []byte(`{"pipelines": {}, "typo": 1}`), 0o644)
	if _, err := LoadConfig(filepath.Join(f.env.Home.Dir, ConfigName), Settings{}); err == nil {
		t.Error("unknown key accepted")
	}
}
