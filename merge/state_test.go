package merge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/curator-dev/curator/pipeline"
)

func TestMemoryStateWatermark(t *testing.T) {
	base := `{"watermark": "2026-01-01T00:00:00Z", "last_run": "r0"}`
	tests := []struct {
		name, ours, theirs, want string
		conflicts                int
	}{
		{"later theirs", `{"watermark": "2026-01-02T00:00:00Z", "last_run": "r0"}`, `{"watermark": "2026-01-03T00:00:00Z", "last_run": "r0"}`,
			"{\n  \"watermark\": \"2026-01-03T00:00:00Z\",\n  \"last_run\": \"r0\"\n}\n", 0},
		{"later ours, one-side key", `{"watermark": "2026-01-05T00:00:00Z", "last_run": "r0"}`, `{"watermark": "2026-01-03T00:00:00Z", "last_run": "r2"}`,
			"{\n  \"watermark\": \"2026-01-05T00:00:00Z\",\n  \"last_run\": \"r2\"\n}\n", 0},
		{"conflicting key", `{"watermark": "2026-01-05T00:00:00Z", "last_run": "r1"}`, `{"watermark": "2026-01-03T00:00:00Z", "last_run": "r2"}`,
			"{\n  \"watermark\": \"2026-01-05T00:00:00Z\",\n  \"last_run\": \"r1\",\n  \"merge_conflicts\": {\n    \"last_run\": \"r2\"\n  }\n}\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := File("memory/state.json", []byte(base), []byte(tc.ours), []byte(tc.theirs))
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Data) != tc.want || len(r.Conflicts) != tc.conflicts {
				t.Errorf("got\n%s\nconflicts %+v", r.Data, r.Conflicts)
			}
			if tc.conflicts > 0 && (r.Conflicts[0].Key != "last_run" || r.Conflicts[0].Line != 3) {
				t.Errorf("conflict %+v", r.Conflicts[0])
			}
		})
	}
}

const pipeBase = `{
  "pipeline_id": "p1",
  "updated_at": "2026-01-01T00:00:00Z",
  "overall_status": "in-progress",
  "phases": [
    {"phase_number": 1, "status": "completed", "artifacts": [{"path": "a.md", "sha256": "1"}], "blockers": []},
    {"phase_number": 2, "status": "pending", "artifacts": [], "blockers": [{"message": "m0"}]}
  ],
  "accumulated_context": {"key_decisions": ["d0"]},
  "x_future": {"kept": true}
}
`

func TestPipelineState(t *testing.T) {
	ours := edit(pipeBase,
		`"updated_at": "2026-01-01T00:00:00Z"`, `"updated_at": "2026-01-02T00:00:00Z"`,
		`"status": "pending", "artifacts": []`, `"status": "in-progress", "artifacts": [{"path": "b.md", "sha256": "2"}]`,
		`"blockers": [{"message": "m0"}]`, `"blockers": [{"message": "m0"}, {"message": "ours"}]`,
		`["d0"]`, `["d0", "d1"]`)
	theirs := edit(pipeBase,
		`"updated_at": "2026-01-01T00:00:00Z"`, `"updated_at": "2026-01-03T00:00:00Z"`,
		`{"path": "a.md", "sha256": "1"}`, `{"path": "a.md", "sha256": "9"}, {"path": "c.md"}`,
		`"blockers": [{"message": "m0"}]`, `"blockers": [{"message": "m0"}, {"message": "theirs"}]`,
		`["d0"]`, `["d0", "d2", "d1"]`,
		`    {"phase_number": 1,`, `    {"phase_number": 3, "status": "pending"},
    {"phase_number": 1,`)
	r, err := File("pipelines/pipeline-state-demo.json", []byte(pipeBase), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Conflicts) != 0 {
		t.Fatalf("conflicts %+v", r.Conflicts)
	}
	var st pipeline.State
	if err := json.Unmarshal(r.Data, &st); err != nil {
		t.Fatalf("%v\n%s", err, r.Data)
	}
	if st.UpdatedAt != "2026-01-03T00:00:00Z" {
		t.Errorf("updated_at %s", st.UpdatedAt)
	}
	var nums []int
	for _, p := range st.Phases {
		nums = append(nums, p.PhaseNumber)
	}
	if len(nums) != 3 || nums[0] != 1 || nums[1] != 2 || nums[2] != 3 {
		t.Errorf("phases %v", nums)
	}
	arts := func(p pipeline.Phase) string {
		var s []string
		for _, a := range p.Artifacts {
			s = append(s, a.Path+"="+a.SHA256)
		}
		return strings.Join(s, ",")
	}
	if got := arts(st.Phases[0]); got != "a.md=9,c.md=" {
		t.Errorf("phase 1 artifacts %s", got)
	}
	if got := arts(st.Phases[1]); got != "b.md=2" || st.Phases[1].Status != "in-progress" {
		t.Errorf("phase 2 artifacts %s status %s", got, st.Phases[1].Status)
	}
	var msgs []string
	for _, b := range st.Phases[1].Blockers {
		msgs = append(msgs, b.Message)
	}
	if strings.Join(msgs, ",") != "m0,ours,theirs" {
		t.Errorf("blockers %v", msgs)
	}
	if got := strings.Join(st.AccumulatedContext.KeyDecisions, ","); got != "d0,d1,d2" {
		t.Errorf("key_decisions %s", got)
	}
	if !strings.Contains(string(r.Data), `"x_future": {`) {
		t.Errorf("unknown field lost:\n%s", r.Data)
	}
}

func TestPipelineConflictingScalar(t *testing.T) {
	ours := edit(pipeBase, `"overall_status": "in-progress"`, `"overall_status": "blocked"`)
	theirs := edit(pipeBase, `"overall_status": "in-progress"`, `"overall_status": "completed"`)
	r, err := File("pipelines/pipeline-state-demo.json", []byte(pipeBase), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	var st pipeline.State
	if err := json.Unmarshal(r.Data, &st); err != nil {
		t.Fatal(err)
	}
	if st.OverallStatus != "blocked" || len(r.Conflicts) != 1 || r.Conflicts[0].Key != "overall_status" || r.Conflicts[0].Line != 4 {
		t.Errorf("status %s conflicts %+v", st.OverallStatus, r.Conflicts)
	}
	if !strings.Contains(string(r.Data), `"overall_status": "completed"`) {
		t.Errorf("theirs value not kept:\n%s", r.Data)
	}
}

func TestBrokenJSON(t *testing.T) {
	_, err := File("memory/state.json", []byte(`{"watermark": "x"}`), []byte("{\n  \"watermark\": \"y\",\n}"), []byte(`{"watermark": "z"}`))
	if err == nil || !strings.Contains(err.Error(), "(ours)") || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error %v", err)
	}
}

func TestJSONCRLF(t *testing.T) {
	base := "{\r\n  \"watermark\": \"2026-01-01T00:00:00Z\"\r\n}\r\n"
	ours := strings.Replace(base, "01T", "02T", 1)
	theirs := strings.Replace(base, "01T", "03T", 1)
	r, err := File("memory/state.json", []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(base, "01T", "03T", 1); string(r.Data) != want {
		t.Errorf("got %q want %q", r.Data, want)
	}
}

func TestArtifactsCreatedByPath(t *testing.T) {
	base := `{"accumulated_context": {"artifacts_created": ["old.md", {"path": "a.md", "phase": "spec", "timestamp": "2026-01-01T00:00:00Z"}]}}`
	ours := `{"accumulated_context": {"artifacts_created": ["old.md", {"path": "a.md", "phase": "spec", "timestamp": "2026-01-02T00:00:00Z"}, {"path": "b.md", "phase": "impl", "timestamp": "2026-01-02T00:00:00Z"}]}}`
	theirs := `{"accumulated_context": {"artifacts_created": ["old.md", {"path": "a.md", "phase": "spec", "timestamp": "2026-01-03T00:00:00Z"}, {"path": "c.md", "phase": "impl", "timestamp": "2026-01-03T00:00:00Z"}]}}`
	r, err := File("pipelines/pipeline-state-x.json", []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Conflicts) != 0 {
		t.Fatalf("conflicts %+v\n%s", r.Conflicts, r.Data)
	}
	var got struct {
		AC struct {
			Artifacts []any `json:"artifacts_created"`
		} `json:"accumulated_context"`
	}
	if err := json.Unmarshal(r.Data, &got); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got.AC.Artifacts)
	want := `["old.md",{"path":"a.md","phase":"spec","timestamp":"2026-01-03T00:00:00Z"},{"path":"b.md","phase":"impl","timestamp":"2026-01-02T00:00:00Z"},{"path":"c.md","phase":"impl","timestamp":"2026-01-03T00:00:00Z"}]`
	if string(b) != want {
		t.Errorf("artifacts_created\n%s\nwant\n%s", b, want)
	}
}
