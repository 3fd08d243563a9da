package live

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/curator-dev/curator/mdstore"
)

// A caller that applies ListDelta's deltas to the listing it holds has
// every status's listing as List gives it, through random changes of every
// kind; a query with a type or a window, and a caller too far behind, get
// whole listings.
func TestListDeltaFollowsRandomChanges(t *testing.T) {
	s, w := randomWorld(t)
	l := openLive(t, s)
	needFollowing(t, l)
	type held struct {
		version uint64
		byPath  map[string]*mdstore.Memory
	}
	statuses := append([]string{""}, mdstore.MemoryStatuses...)
	hold := map[string]*held{}
	deltas := 0
	for i := range 200 {
		what := w.step()
		if i%25 == 24 {
			for range 20 {
				w.step()
			}
			what = "20 more changes"
		}
		for _, st := range statuses {
			q := mdstore.MemoryQuery{Status: st}
			h := hold[st]
			if h == nil {
				h = &held{byPath: map[string]*mdstore.Memory{}}
				hold[st] = h
			}
			got, version, err := l.ListDelta(q, h.version)
			if err != nil {
				t.Fatal(err)
			}
			want, err := l.List(q)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case got == nil:
				if version != h.version {
					t.Fatalf("step %d (%s), status %q: no list, version %d for %d", i, what, st, version, h.version)
				}
			case got.Delta:
				deltas++
				for _, p := range got.Removed {
					delete(h.byPath, p)
				}
				for _, m := range got.Memories {
					h.byPath[m.Path] = m
				}
			default:
				h.byPath = map[string]*mdstore.Memory{}
				for _, m := range got.Memories {
					h.byPath[m.Path] = m
				}
			}
			if got != nil {
				h.version = version
				if d := sameInvalid(got.Invalid, want.Invalid); d != "" {
					t.Fatalf("step %d (%s), status %q: %s", i, what, st, d)
				}
			}
			if len(h.byPath) != len(want.Memories) {
				t.Fatalf("step %d (%s), status %q: %d memories held, want %d", i, what, st, len(h.byPath), len(want.Memories))
			}
			for _, m := range want.Memories {
				if g := h.byPath[m.Path]; g == nil || !reflect.DeepEqual(*g, *m) {
					t.Fatalf("step %d (%s), status %q: %s held as %+v, want %+v", i, what, st, m.Path, g, m)
				}
			}
		}
	}
	if deltas < 100 {
		t.Fatalf("only %d deltas in 800 listings", deltas)
	}
	// A query with a type gets the whole listing.
	if got, _, err := l.ListDelta(mdstore.MemoryQuery{Status: "inbox", Type: "fact"}, 1); err != nil || got == nil || got.Delta {
		t.Fatalf("a typed query: %+v, %v; want a whole listing", got, err)
	}
}

// A caller further behind than the changes remembered gets the whole
// listing.
func TestListDeltaTooFarBehind(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
	l := openLive(t, s)
	needFollowing(t, l)
	q := mdstore.MemoryQuery{Status: "inbox"}
	_, v, err := l.ListDelta(q, 0)
	if err != nil {
		t.Fatal(err)
	}
	l.run.Lock()
	l.log.record(l.version+1, make([]liveChange, maxLogged+1))
	l.version++
	l.run.Unlock()
	got, _, err := l.ListDelta(q, v)
	if err != nil || got == nil || got.Delta || len(got.Memories) != 1 {
		t.Fatalf("far behind: %+v, %v; want the whole listing of 1", got, err)
	}
}

// sameInvalid reports how got differs from want ("" when it does not).
func sameInvalid(got, want []*mdstore.InvalidFile) string {
	if len(got) != len(want) {
		return fmt.Sprintf("invalid %v, want %v", got, want)
	}
	for i := range got {
		if *got[i] != *want[i] {
			return fmt.Sprintf("invalid %d: %v, want %v", i, got[i], want[i])
		}
	}
	return ""
}

// A record whose fields the listing holds but cannot unpack (an index
// entry a faulty build wrote) stays in every delta's Invalid, as in every
// whole listing, until its file changes.
func TestListDeltaKeepsUndecodable(t *testing.T) {
	s, _ := newStore(t)
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa"))
	putFile(t, s, "memory/inbox/b.md", liveMem("b", "fact", 6, "bbbb"))
	l := openLive(t, s)
	needFollowing(t, l)
	q := mdstore.MemoryQuery{Status: "inbox"}
	if _, _, err := l.ListDelta(q, 0); err != nil {
		t.Fatal(err)
	}
	l.run.Lock()
	leaf, _ := leafIndex("memory/inbox")
	l.entries[leaf]["a.md"].packed = []byte{0xff}
	l.run.Unlock()
	whole, v, err := l.ListDelta(q, 0)
	if err != nil || len(whole.Invalid) != 1 || whole.Invalid[0].Path != "memory/inbox/a.md" {
		t.Fatalf("whole listing: %+v, %v; want a.md invalid", whole, err)
	}
	putFile(t, s, "memory/inbox/b.md", liveMem("b", "fact", 6, "bbbb changed"))
	got, v, err := l.ListDelta(q, v)
	if err != nil || got == nil || !got.Delta || len(got.Memories) != 1 {
		t.Fatalf("after b changed: %+v, %v; want a delta of b", got, err)
	}
	if d := sameInvalid(got.Invalid, whole.Invalid); d != "" {
		t.Fatalf("after b changed: %s", d)
	}
	putFile(t, s, "memory/inbox/a.md", liveMem("a", "fact", 5, "aaaa again"))
	got, _, err = l.ListDelta(q, v)
	if err != nil || got == nil || !got.Delta || len(got.Memories) != 1 || len(got.Invalid) != 0 {
		t.Fatalf("after a was rewritten: %+v, %v; want a back and nothing invalid", got, err)
	}
}
