package mdstore

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func writeMem(t *testing.T, s *Store, id, at string) {
	t.Helper()
	data := fmt.Sprintf("---\nid: %s\ntype: fact\nbrief: b\ningestion_time: %s\n---\n", id, at)
	if err := os.WriteFile(s.Path("memory/inbox/"+id+".md"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The memory index must never change what a listing returns.
func TestWindowListingSeesEditsDespiteTheIndex(t *testing.T) {
	s, _ := newStore(t)
	writeMem(t, s, "a", "2026-11-29T09:10:00Z")
	writeMem(t, s, "b", "2026-11-29T11:10:00Z")
	q := MemoryQuery{Status: "inbox", From: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC), To: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
	ids := func() string {
		res, err := s.ListMemories(q)
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, m := range res.Memories {
			out += m.ID + " "
		}
		return out
	}
	if got := ids(); got != "a " {
		t.Fatalf("first listing: %q", got)
	}
	if _, err := os.Stat(s.Path(".cache/memory-index")); err != nil {
		t.Fatalf("no index written: %v", err)
	}
	// b moves into the window (a longer line: the size changes too)
	writeMem(t, s, "b", "2026-11-29T09:20:00.5Z")
	// a new file appears, another disappears
	writeMem(t, s, "c", "2026-11-29T09:30:00Z")
	os.Remove(s.Path("memory/inbox/a.md"))
	if got := ids(); got != "b c " {
		t.Fatalf("after edits: %q", got)
	}
	// times beyond what nanoseconds since 1970 can hold are cached exactly
	writeMem(t, s, "far", "2300-01-01T00:00:00Z")
	q.To = time.Time{}
	if got := ids(); got != "b c far " {
		t.Fatalf("with a far future entry: %q", got)
	}
	if got := ids(); got != "b c far " {
		t.Fatalf("with a far future entry, from the index: %q", got)
	}
	os.Remove(s.Path("memory/inbox/far.md"))
	q.To = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	// a corrupt index is ignored
	os.WriteFile(s.Path(".cache/memory-index"), []byte("garbage\x00\tline\n"), 0o644)
	if got := ids(); got != "b c " {
		t.Fatalf("with a corrupt index: %q", got)
	}
}
