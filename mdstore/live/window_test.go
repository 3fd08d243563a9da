package live

import (
	"os"
	"testing"

	"github.com/curator-dev/curator/mdstore"
)

// A window keeps the records it was made with, whatever changes after,
// and unpacks only the part asked for.
func TestWindowStaysAsItWasMade(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
	putFile(t, s, "memory/inbox/b.md", liveMem("b", "fact", 6, "bbbb"))
	putFile(t, s, "memory/inbox/c.md", liveMem("c", "fact", 7, "cccc"))
	l := openLive(t, s)
	needFollowing(t, l)
	q := mdstore.MemoryQuery{Status: "inbox"}
	w, err := l.ListWindow(q)
	if err != nil {
		t.Fatal(err)
	}
	before := windowList(w)
	putFile(t, s, "memory/inbox/b.md", liveMem("b", "fact", 6, "bbbb changed"))
	if err := os.Remove(s.Path("memory/inbox/c.md")); err != nil {
		t.Fatal(err)
	}
	putFile(t, s, "memory/inbox/d.md", liveMem("d", "fact", 8, "dddd"))
	if _, err := l.List(q); err != nil { // the listing takes in the changes
		t.Fatal(err)
	}
	if d := sameList(windowList(w), before); d != "" {
		t.Fatalf("the window changed with the files: %s", d)
	}
	if got := w.Memories(1, 2); len(got) != 1 || got[0].Brief != "bbbb" {
		t.Fatalf("Memories(1, 2) = %v, want b as it was", got)
	}
	checkLive(t, l, s, "after the changes")
}

// A record whose packed fields are damaged is left out of a window and
// reported, as List reports it.
func TestWindowReportsDamagedRecords(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
	putFile(t, s, "memory/inbox/b.md", liveMem("b", "fact", 6, "bbbb"))
	l := openLive(t, s)
	needFollowing(t, l)
	q := mdstore.MemoryQuery{Status: "inbox"}
	if _, err := l.List(q); err != nil {
		t.Fatal(err)
	}
	l.run.Lock()
	leaf, _ := leafIndex("memory/inbox")
	e := l.entries[leaf]["a.md"]
	e.packed, e.checked = []byte{0xff}, false // as a damaged index would give it
	l.run.Unlock()
	w, err := l.ListWindow(q)
	if err != nil {
		t.Fatal(err)
	}
	if w.Len() != 1 || len(w.Invalid) != 1 || w.Invalid[0].Path != "memory/inbox/a.md" {
		t.Fatalf("window of %d, invalid %v; want b alone and a invalid", w.Len(), w.Invalid)
	}
	if got := w.Memories(0, 1); len(got) != 1 || got[0].ID != "b" {
		t.Fatalf("window holds %v, want b", got)
	}
	list, err := l.List(q)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameInvalid(w.Invalid, list.Invalid); d != "" {
		t.Fatalf("window and List report differently: %s", d)
	}
}
