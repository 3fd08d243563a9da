package pipeline

import (
	"testing"
	"time"
)

func TestCompleteStepsOnlyCompletesStepsThatRan(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	phase := func() *Phase {
		return &Phase{Steps: []Step{
			{StepNumber: 1, Status: StatusCompleted, StartedAt: "a", CompletedAt: "b"},
			{StepNumber: 2, Status: StatusInProgress, StartedAt: "c"},
			{StepNumber: 3, Status: StatusPending},
			{StepNumber: 4, Status: StatusPending},
		}}
	}
	ph := phase()
	never := completeSteps(ph, 0, "", now)
	want := []string{StatusCompleted, StatusCompleted, StatusPending, StatusPending}
	for i, s := range ph.Steps {
		if s.Status != want[i] {
			t.Fatalf("step %d: %s, want %s", s.StepNumber, s.Status, want[i])
		}
	}
	if len(never) != 2 || never[0] != 3 || never[1] != 4 || ph.Steps[2].CompletedAt != "" {
		t.Fatalf("never ran: %v; step 3 %+v", never, ph.Steps[2])
	}

	ph = phase()
	completeSteps(ph, 0, "descoped", now)
	if s := ph.Steps[3]; s.Status != StatusSkipped || s.SkipReason != "descoped" {
		t.Fatalf("--skip-remaining: step 4 %+v", s)
	}
	if s := ph.Steps[1]; s.Status != StatusCompleted || s.SkipReason != "" {
		t.Fatalf("a step that ran is completed, not skipped: %+v", s)
	}

	// moving to step 4 directly: step 3 never ran, stays pending
	ph = phase()
	never = completeSteps(ph, 4, "", now)
	if ph.Steps[2].Status != StatusPending || ph.Steps[3].Status != StatusInProgress || len(never) != 1 {
		t.Fatalf("step 4: %+v, never ran %v", ph.Steps, never)
	}
}
