package memory

import (
	"encoding/json"
	"testing"

	"github.com/curator-dev/curator/mdstore"
)

func TestReportKeysInOrder(t *testing.T) {
	w, _ := NewWindow(t0, t0.Add(60*60*1e9))
	r := &Run{Plan: &Plan{Window: w, Candidates: []string{"a"}}, Run: &mdstore.Run{Commit: mdstore.CommitInfo{RunID: "r1"}}}
	b, err := json.Marshal(r.Report("c1", true))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"candidates":["a"],"commit":"c1","discarded":null,"dry_run":true,"duplicates":null,"invalid":[],"kept":null,"late":null,"left_for_reflection":null,"observations_closed":[],"promoted":null,"run_id":"r1","window":{"from":"2026-11-29T09:00:00Z","from_watermark":false,"to":"2026-11-29T10:00:00Z"}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}
