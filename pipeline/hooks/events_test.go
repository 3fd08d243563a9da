package hooks

import (
	"reflect"
	"testing"

	"github.com/curator-dev/curator/pipeline"
)

func TestEventsOf(t *testing.T) {
	builtin := pipeline.Builtin()
	for _, tc := range []struct {
		pipeline, from, to string
		want               []Event
	}{
		{"sdd", "spec-writer", "implementer", []Event{PhaseCompleted}},
		{"sdd", "implementer", "implementer", []Event{StepDone}},
		{"sdd", "implementer", "reviewer", []Event{StepDone, PhaseCompleted}},
		{"sdd", "reviewer", "implementer", nil}, // rework: sent back
		{"sdd", "reviewer", "done", []Event{Approval, PhaseCompleted, PipelineCompleted}},
		{"ui-lifecycle", "ux-research", "info-arch", []Event{PhaseCompleted}},
		{"ui-lifecycle", "ui-reviewer", "done", []Event{Approval, PhaseCompleted, PipelineCompleted}},
		{"debug", "fixer", "verifier", []Event{PhaseCompleted}},
		{"debug", "verifier", "fixer", nil},
		{"debug", "verifier", "done", []Event{Approval, PhaseCompleted, PipelineCompleted}},
		{"full-product", "architect", "spec-writer", []Event{PhaseCompleted}},
		{"sdd", "nope", "done", nil},
	} {
		got := EventsOf(builtin[tc.pipeline], tc.from, tc.to)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s→%s: %v, want %v", tc.pipeline, tc.from, tc.to, got, tc.want)
		}
	}
}

func TestPlan(t *testing.T) {
	cfg := Config{"sdd": {PhaseCompleted: None}}
	if got := cfg.Plan("sdd"); got[PhaseCompleted] != None || got[StepDone] != Curate || got[PipelineCompleted] != Dedup {
		t.Errorf("sdd plan %v", got)
	}
	if got := cfg.Plan("debug"); !reflect.DeepEqual(got, DefaultPlan()) {
		t.Errorf("debug plan %v, want the defaults", got)
	}
}
