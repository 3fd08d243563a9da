package memory

import (
	"errors"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

func TestPassWindowNeverEndsAfterNow(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	from := now.Add(-time.Hour)
	noWatermark := func() (time.Time, error) { t.Fatal("watermark read"); return time.Time{}, nil }
	w, err := PassWindow("", from, now.Add(24*time.Hour), now, noWatermark)
	if err != nil || !w.To.Equal(now) {
		t.Fatalf("future end: got %v, %v; want the window cut at %v", w, err, now)
	}
	w, err = PassWindow("整理范围：2026-11-30T11:00:00Z 到 2099-01-01T00:00:00Z", time.Time{}, time.Time{}, now, noWatermark)
	if err != nil || !w.To.Equal(now) {
		t.Fatalf("task ending in the future: got %v, %v", w, err)
	}
	var werr *WindowError
	if _, err := PassWindow("", now.Add(time.Hour), now.Add(2*time.Hour), now, noWatermark); !errors.As(err, &werr) {
		t.Fatalf("a window starting after now: got %v, want a WindowError", err)
	}
	if _, err := PassWindow("整理范围：2099-01-01 到 2099-01-02", time.Time{}, time.Time{}, now, noWatermark); !errors.As(err, &werr) || !werr.Task {
		t.Fatalf("a task window starting after now: got %v", err)
	}
}

func TestMemoryStateAfter(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2026, 11, 29, h, 0, 0, 0, time.UTC) }
	mem := func(id string, h int) *mdstore.Memory { return &mdstore.Memory{ID: id, IngestionTime: at(h)} }
	w := Window{From: at(10), To: at(11)}
	p := &Plan{Promoted: []Action{{ID: "moved"}}, Discarded: []Action{{ID: "trashed"}}}
	cands := []*mdstore.Memory{mem("moved", 10), mem("trashed", 10), mem("kept", 10), mem("late", 9)}
	st := MemoryStateAfter(mdstore.MemoryState{Watermark: at(10)}, w, p, []string{"old"}, cands, "r1")
	if !st.Watermark.Equal(at(11)) || st.LastRun != "r1" {
		t.Fatalf("state %+v", st)
	}
	want := []string{"kept", "late", "old"}
	if len(st.Seen) != len(want) {
		t.Fatalf("seen %v, want %v", st.Seen, want)
	}
	for i := range want {
		if st.Seen[i] != want[i] {
			t.Fatalf("seen %v, want %v", st.Seen, want)
		}
	}
	// a window that ends before the watermark never moves it back
	st = MemoryStateAfter(mdstore.MemoryState{Watermark: at(12)}, w, &Plan{}, nil, nil, "r2")
	if !st.Watermark.Equal(at(12)) {
		t.Fatalf("watermark moved back to %v", st.Watermark)
	}
}
