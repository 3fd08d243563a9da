package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The working directory is the project folder only when none is given and
// the state records none.
func TestWorkDirDefaults(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", pad(validSpec, 600))
	other := t.TempDir()

	// validate, no state: the working directory is the project.
	r, err := f.env.validate(ProjectRequest{Project: "shop", WorkDir: f.project}, "spec-writer")
	if err != nil || len(r.Checks) == 0 || !r.Checks[0].OK {
		t.Fatalf("validate in the working directory: %v %+v", err, r)
	}
	if _, err := f.env.validate(ProjectRequest{Project: "shop"}, "spec-writer"); err == nil || !strings.Contains(err.Error(), "--project-path") {
		t.Fatalf("validate with no folder at all: %v", err)
	}
	// reconstruct, no state: the same.
	if _, err := f.env.reconstruct(ProjectRequest{Project: "shop"}); err == nil || !strings.Contains(err.Error(), "--project-path") {
		t.Fatalf("reconstruct with no folder at all: %v", err)
	}
	r, err = f.env.resume(ProjectRequest{Project: "shop", WorkDir: f.project})
	if err != nil || r.State.ProjectPath != f.project || r.Mode != "resume" {
		t.Fatalf("resume in the working directory: %v %+v", err, r)
	}

	// transition, no state: the working directory starts the pipeline.
	g := newFixture(t, 5)
	g.write("spec.md", pad(validSpec, 600))
	r, err = g.env.transition(TransitionRequest{Project: "shop", Pipeline: "sdd", From: "spec-writer", To: "implementer", WorkDir: g.project})
	if err != nil || r.State.ProjectPath != g.project {
		t.Fatalf("first transition in the working directory: %v", err)
	}
	g.apply(r)
	// Once recorded, the working directory is not used.
	r, err = g.env.transition(TransitionRequest{Project: "shop", Pipeline: "sdd", From: "spec-writer", To: "implementer", Step: 2, WorkDir: other})
	if err != nil || r.State.ProjectPath != g.project {
		t.Fatalf("later transition: %v, folder %s", err, r.State.ProjectPath)
	}
	r, err = g.env.validate(ProjectRequest{Project: "shop", WorkDir: other}, "spec-writer")
	if err != nil || len(r.Checks) == 0 || !r.Checks[0].OK {
		t.Fatalf("validate with a recorded folder: %v", err)
	}
}

func TestSummary(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", pad("# Spec\n## User Stories\n### User Story 1\nx\n", 600))
	r, err := f.transition("spec-writer", "implementer", 0)
	if !errors.Is(err, ErrBlocked) || r.Summary() != "pipeline shop: spec-writer → implementer blocked" {
		t.Fatalf("blocked: %v, summary %q", err, r.Summary())
	}
	f.write("spec.md", pad(validSpec, 600))
	r, err = f.transition("spec-writer", "implementer", 0)
	if err != nil || r.Summary() != "pipeline shop: spec-writer → implementer" {
		t.Fatalf("transition: %v, summary %q", err, r.Summary())
	}
	r, err = f.env.restart(ProjectRequest{Project: "shop"}, "implementer")
	if err != nil || r.Summary() != "pipeline shop: restart" {
		t.Fatalf("restart: %v, summary %q", err, r.Summary())
	}
	r, err = f.env.dashboardReport(ProjectRequest{Project: "shop"})
	if err != nil || r.Summary() != "pipeline shop: dashboard" || len(r.Files) != 1 || r.Files[0].Name != DashboardName("shop") {
		t.Fatalf("dashboard: %v, %+v", err, r)
	}
}

func TestWrites(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", pad(validSpec, 600))
	r, err := f.transition("spec-writer", "implementer", 0)
	if err != nil {
		t.Fatal(err)
	}
	// Everything is on disk now: nothing is left to write.
	if w, err := f.env.writes(r); err != nil || len(w) != 0 {
		t.Fatalf("unchanged files to write: %v %v", err, Names(w))
	}
	// A move is always written; a changed file is; a secret is redacted
	// and reported.
	os.WriteFile(filepath.Join(f.env.Home.Dir, "old.json"), []byte("x"), 0o644)
	r = &Report{Mode: "test", Project: "shop", Files: []File{
		{Name: "moved.json", From: "old.json", Data: []byte("x")},
		{Name: StateName("shop") + ".note", Data: []byte("key AKIAQWJ4ZT7NRX5LBV2M\n")},
	}}
	w, err := f.env.writes(r)
	if err != nil || len(w) != 2 {
		t.Fatalf("writes: %v %v", err, Names(w))
	}
	if strings.Contains(string(w[1].Data), "AKIA") || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "redacted") {
		t.Fatalf("secret not redacted: %q, warnings %v", w[1].Data, r.Warnings)
	}
	if _, err := f.env.writes(&Report{Files: []File{{Name: "../out"}}}); !errors.Is(err, ErrUnsafePath) {
		t.Fatalf("a name outside the home: %v", err)
	}
}

// Names lists the files' names, for messages.
func Names(files []File) string {
	var s []string
	for _, f := range files {
		s = append(s, f.Name)
	}
	return strings.Join(s, ", ")
}
