package mdstore

import (
	"bytes"
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

// A file the index knows to lie outside the window is not read again while
// its size and mtime are unchanged; once either changes it is read again.
func TestWindowListingSkipsIndexedFilesOutsideTheWindow(t *testing.T) {
	s, _ := newStore(t)
	writeMem(t, s, "in", "2026-11-29T09:10:00Z")
	writeMem(t, s, "out", "2026-11-29T11:10:00Z")
	q := MemoryQuery{Status: "inbox", From: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC), To: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
	list := func() *MemoryList {
		t.Helper()
		res, err := s.ListMemories(q)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := list(); len(res.Memories) != 1 || len(res.Invalid) != 0 {
		t.Fatalf("first listing: %+v", res)
	}
	path := s.Path("memory/inbox/out.md")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// same size, same mtime, unreadable content: the index says "outside"
	os.WriteFile(path, bytes.Repeat([]byte{'x'}, int(fi.Size())), 0o644)
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	if res := list(); len(res.Memories) != 1 || len(res.Invalid) != 0 {
		t.Fatalf("the indexed file was read: %+v", res.Invalid)
	}
	// a new mtime: read again, and reported
	os.Chtimes(path, fi.ModTime().Add(time.Second), fi.ModTime().Add(time.Second))
	if res := list(); len(res.Invalid) != 1 || res.Invalid[0].Path != "memory/inbox/out.md" {
		t.Fatalf("the changed file was not read: %+v", res.Invalid)
	}
}
