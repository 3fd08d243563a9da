package memory

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// writeConfirmed writes a confirmed fact whose observation window started
// at started (7 days) straight into the store's folder.
func writeConfirmed(t *testing.T, s *mdstore.Store, id, brief string, at, started time.Time) string {
	t.Helper()
	m, err := mdstore.NewMemoryRecord(mdstore.NewMemory{ID: id, Type: "fact", Brief: brief, IngestionTime: at, Body: "body"})
	if err != nil {
		t.Fatal(err)
	}
	obs := fmt.Sprintf("observation:\n  started_at: %s\n  window_days: 7\n  outcome: pending\n", started.Format(time.RFC3339))
	text := strings.Replace(string(m.Doc.Bytes()), "status: inbox", "status: confirmed", 1)
	text = strings.Replace(text, "---\nbody", obs+"---\nbody", 1)
	rel := mdstore.MemoryPath("confirmed", "fact", id)
	if err := os.MkdirAll(s.Path("memory/confirmed/fact"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(rel), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return rel
}

// Among many confirmed memories, the one whose window is due is closed
// (superseded by the newer memory of its dedup key), and once the memory
// index knows the others, they are not read again: their contents are
// replaced by unreadable bytes of the same size and mtime, and no file is
// reported as invalid.
func TestObserveReadsOnlyDueWindows(t *testing.T) {
	tx := txOn(t)
	s := tx.Store
	now := s.Now()
	at := now.Add(-30 * 24 * time.Hour)
	var others []string
	for i := 0; i < 300; i++ {
		others = append(others, writeConfirmed(t, s, fmt.Sprintf("f-%03d", i), fmt.Sprintf("fact number %d of the store", i), at.Add(time.Duration(i)*time.Minute), now.Add(-time.Hour)))
	}
	writeConfirmed(t, s, "f-due", "The staging database is reset nightly", at, now.Add(-8*24*time.Hour))
	writeConfirmed(t, s, "f-newer", "The staging database is reset nightly", at.Add(time.Hour), now.Add(-time.Hour))
	observe := func(dry bool) *ObserveReport {
		t.Helper()
		rep, err := Observe(context.Background(), tx, ObserveRequest{DryRun: dry})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	check := func(rep *ObserveReport) {
		t.Helper()
		if len(rep.Closed) != 1 || rep.Closed[0].ID != "f-due" || rep.Closed[0].Outcome != OutcomeSuperseded || rep.Closed[0].SupersededBy != "f-newer" {
			t.Fatalf("closed %+v, want f-due superseded by f-newer", rep.Closed)
		}
		if len(rep.Invalid) != 0 {
			t.Fatalf("%d files reported invalid, first %+v: files outside the due windows were read", len(rep.Invalid), rep.Invalid[0])
		}
	}
	check(observe(true))
	tx.Close() // the memory index is written
	for _, rel := range others {
		fi, err := os.Stat(s.Path(rel))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(s.Path(rel), bytes.Repeat([]byte{'x'}, int(fi.Size())), 0o644)
		os.Chtimes(s.Path(rel), fi.ModTime(), fi.ModTime())
	}
	var err error
	if tx, err = s.Begin(mdstore.TxOptions{}); err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	check(observe(false))
	if data, _ := os.ReadFile(s.Path("memory/confirmed/fact/f-due.md")); !bytes.Contains(data, []byte("outcome: superseded")) {
		t.Fatalf("f-due not closed:\n%s", data)
	}
}
