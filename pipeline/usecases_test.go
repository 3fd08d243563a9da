package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curator-dev/curator/internal/refuse"
)

// folderSaver writes the files it is given into the home, as a home
// outside every store does, and counts its runs as commits.
type folderSaver struct {
	t     *testing.T
	home  Home
	saves []string
}

func (s *folderSaver) Save(files []File, summary string, _ []string) (string, error) {
	for _, f := range files {
		p, err := s.home.Path(f.Name)
		if err != nil {
			return "", err
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return "", err
		}
	}
	s.saves = append(s.saves, summary)
	return fmt.Sprintf("c%d", len(s.saves)), nil
}

// The use-cases fill in the project, refuse wrong requests before anything
// is written, save a blocked handoff's state with the error, record
// nothing for a first transition that finds no file, and save nothing
// when only a time would change.
func TestUseCasesSave(t *testing.T) {
	f := newFixture(t, 5)
	s := &folderSaver{t: t, home: f.env.Home}
	ctx := context.Background()
	req := TransitionRequest{Project: "shop", Pipeline: "sdd", From: "spec-writer", To: "implementer", ProjectPath: f.project}

	if _, err := Status(ctx, f.env, ProjectRequest{}); !refuse.IsRequest(err) || !strings.Contains(err.Error(), "holds no pipeline yet") {
		t.Errorf("status with no project and no pipeline: %v", err)
	}
	bad := req
	bad.Step = -1
	if _, err := Transition(ctx, f.env, s, bad); !refuse.IsRequest(err) {
		t.Errorf("step -1: %v", err)
	}
	bad = req
	bad.Project = "../shop"
	if _, err := Transition(ctx, f.env, s, bad); !refuse.IsRequest(err) || !errors.Is(err, ErrUnsafePath) {
		t.Errorf("project ../shop: %v", err)
	}
	// nothing of the phase on disk: nothing recorded
	if r, err := Transition(ctx, f.env, s, req); err == nil || r != nil || len(s.saves) != 0 {
		t.Fatalf("first transition on nothing: %v, %v, saves %v", r, err, s.saves)
	}
	if _, err := os.Stat(filepath.Join(f.env.Home.Dir, StateName("shop"))); err == nil {
		t.Fatal("a first transition on nothing wrote the state")
	}

	f.write("spec.md", pad("# Spec\n## User Stories\n### User Story 1\nx\n", 600))
	r, err := Transition(ctx, f.env, s, req)
	if !refuse.IsBlocked(err) || !errors.Is(err, ErrBlocked) || r == nil || r.State.OverallStatus != OverallBlocked {
		t.Fatalf("blocked transition: %v, %+v", err, r)
	}
	if len(s.saves) != 1 || r.Commit != "c1" || r.StateFile != filepath.Join(f.env.Home.Dir, StateName("shop")) {
		t.Fatalf("blocked state not saved: %v, %+v", s.saves, r)
	}

	f.write("spec.md", pad(validSpec, 600))
	if r, err = Transition(ctx, f.env, s, req); err != nil || r.Commit != "c2" || !strings.HasSuffix(r.Brief, "2-implementer-step-1.md") {
		t.Fatalf("transition: %v, %+v", err, r)
	}
	// --project left out: the one project of the home
	if r, err = Status(ctx, f.env, ProjectRequest{}); err != nil || r.Project != "shop" || r.Commit != "" {
		t.Fatalf("status: %v, %+v", err, r)
	}
	// refresh writes the brief once; again, it is as it was but for its
	// time: no save, no commit
	if r, err = Refresh(ctx, f.env, s, ProjectRequest{Project: "shop"}); err != nil || r.Commit != "c3" {
		t.Fatalf("refresh: %v, %+v", err, r)
	}
	if r, err = Refresh(ctx, f.env, s, ProjectRequest{Project: "shop"}); err != nil || r.Commit != "" || len(s.saves) != 3 {
		t.Fatalf("refresh: %v, %+v, saves %v", err, r, s.saves)
	}
	if d, err := Dashboard(ctx, f.env, s, ProjectRequest{}); err != nil || d.Commit != "" || len(s.saves) != 3 {
		t.Fatalf("dashboard: %v, %+v, saves %v", err, d, s.saves)
	}
	if _, err := Validate(ctx, f.env, ValidateRequest{ProjectRequest: ProjectRequest{Project: "shop"}, Phase: "testing"}); !refuse.IsRequest(err) {
		t.Errorf("unknown phase: %v", err)
	}
}
