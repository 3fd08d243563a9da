package playbook

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/curator-dev/curator/internal/refuse"
)

// Each use-case refuses a request it cannot do as a request error that
// names the parameter, before it takes the store's lock or writes.
func TestUseCasesRefuseBadRequests(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	good := Settings{Threshold: DefaultThreshold, MinConfidence: DefaultMinConf}
	with := func(f func(*Settings)) CurateRequest {
		set := good
		f(&set)
		return CurateRequest{Settings: set}
	}
	for _, tc := range []struct {
		param string
		call  func() error
	}{
		{"similarity_threshold", func() error { _, err := Curate(ctx, s, with(func(s *Settings) { s.Threshold = 0.5 })); return err }},
		{"similarity_threshold", func() error { _, err := Curate(ctx, s, with(func(s *Settings) { s.Threshold = 1.5 })); return err }},
		{"min_confidence", func() error { _, err := Curate(ctx, s, with(func(s *Settings) { s.MinConfidence = -0.1 })); return err }},
		{"reflection_id", func() error {
			_, err := Curate(ctx, s, with(func(s *Settings) { s.ReflectionID = "../x" }))
			return err
		}},
		{"reflection_id", func() error {
			_, err := Prompt(ctx, s, PromptRequest{ReflectionID: "r 1 ", Settings: good})
			return err
		}},
		{"reflection_id", func() error { _, err := Apply(ctx, s, ApplyRequest{Name: "a.json", ReflectionID: " r"}); return err }},
		{"id", func() error { _, err := Review(ctx, s, ReviewRequest{ID: "a/b"}); return err }},
		{"limit", func() error { _, err := Query(ctx, s, QueryRequest{Limit: -1}); return err }},
		{"top", func() error { _, err := InjectFile(ctx, s, InjectRequest{Top: 0, File: "x.md"}); return err }},
		{"for", func() error {
			_, err := InjectFile(ctx, s, InjectRequest{Top: 1, File: "x.md", ForSet: true, For: " "})
			return err
		}},
		{"decision", func() error { return ReviewQueueRequest{Decision: "maybe"}.Check() }},
		{"format", func() error { _, err := Export(ctx, s, ExportRequest{Format: "kayba"}); return err }},
		{"format", func() error { _, err := Import(ctx, s, ImportRequest{Format: "csv"}); return err }},
	} {
		err := tc.call()
		var pe *ParamError
		if !refuse.IsRequest(err) || !errors.As(err, &pe) || pe.Param != tc.param {
			t.Errorf("%s: got %v, want a refused request naming %s", tc.param, err, tc.param)
		}
	}
	if es, _ := os.ReadDir(s.Path("context/log")); len(es) > 1 {
		t.Errorf("a refused request wrote a merge log: %v", es)
	}
}

// A curation that is asked for a reflection that is not pending is a
// refused request; a dry run reports and writes nothing.
func TestCurateDryRunAndUnknownReflection(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	req := CurateRequest{Settings: DefaultSettings()}
	req.Settings.ReflectionID = "refl-nowhere"
	if _, err := Curate(ctx, s, req); !refuse.IsRequest(err) {
		t.Errorf("an unknown reflection: %v, want a refused request", err)
	}
	r, err := Reflect(ctx, s, ReflectRequest{Name: "stdin", Data: []byte("---\nlessons:\n  - content: Page through every result page.\n---\n"), FreshID: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Curate(ctx, s, CurateRequest{Settings: DefaultSettings(), DryRun: true})
	if err != nil || !rep.DryRun || rep.Commit != "" || len(rep.ReflectionsMerged) != 1 || rep.ReflectionsMerged[0] != r.ID {
		t.Fatalf("dry run: %+v %v", rep, err)
	}
	if _, err := os.Stat(s.Path(r.Path)); err != nil {
		t.Errorf("the dry run moved the reflection: %v", err)
	}
}
