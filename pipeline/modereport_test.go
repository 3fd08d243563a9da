package pipeline

import (
	"path/filepath"
	"testing"
)

// A mode's report says whether a check failed and which file written is
// the dashboard; a phase says how many of its steps are done.
func TestModeReportReadings(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, DashboardName("shop"))
	r := &ModeReport{Home: dir, Project: "shop", Files: []string{filepath.Join(dir, StateName("shop")), page},
		Checks: []Check{{Type: "file", OK: true}}}
	if r.Failed() || r.Dashboard() != page {
		t.Errorf("failed %v, dashboard %q; want false, %q", r.Failed(), r.Dashboard(), page)
	}
	r.Checks = append(r.Checks, Check{Type: "sections"})
	r.Files = r.Files[:1]
	if !r.Failed() || r.Dashboard() != "" {
		t.Errorf("failed %v, dashboard %q; want true and none", r.Failed(), r.Dashboard())
	}
	ph := Phase{Steps: []Step{{Status: StatusCompleted}, {Status: StatusPending}, {Status: StatusCompleted}}}
	if n := ph.StepsDone(); n != 2 {
		t.Errorf("steps done %d, want 2", n)
	}
}
