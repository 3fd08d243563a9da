package live

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// The lists kept by small changes, merges and rebuilds are the lists a
// sort of all entries makes.
func TestLiveOrdersMatchASort(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewSource(seed))
	entries := map[string]*liveEntry{}
	var o liveOrders
	newEntry := func(rel string, leaf int) *liveEntry {
		if r.Intn(10) == 0 {
			return &liveEntry{leaf: uint8(leaf), rel: rel, rare: &liveRare{bad: &mdstore.InvalidFile{Path: rel}}}
		}
		id := fmt.Sprintf("id%d", r.Intn(5)) // ties on (time, id) too
		e := newLiveEntry(leaf, rel+"/"+id+".md", &mdstore.Memory{
			ID:            id,
			Type:          mdstore.MemoryTypes[r.Intn(len(mdstore.MemoryTypes))],
			IngestionTime: liveT0.Add(time.Duration(r.Intn(20)) * time.Minute),
		})
		if r.Intn(8) == 0 {
			e.rare = &liveRare{secret: &mdstore.InvalidFile{Path: rel}}
		}
		return e
	}
	for round := range 400 {
		n := 1 + r.Intn(8)
		if r.Intn(5) == 0 {
			n = 20 + r.Intn(80)
		}
		var changes []liveChange
		seen := map[string]bool{}
		for range n {
			leaf := r.Intn(len(liveLeaves))
			rel := fmt.Sprintf("%s/f%d", liveLeaves[leaf].rel, r.Intn(150)) // a folder per file: the id may be any
			if seen[rel] {
				continue
			}
			seen[rel] = true
			old := entries[rel]
			var e *liveEntry
			switch {
			case old != nil && r.Intn(3) == 0: // removed
			case old != nil && old.readable() && r.Intn(2) == 0: // same key, other fields
				m, err := old.memory()
				if err != nil {
					t.Fatal(err)
				}
				m.Brief = "again"
				e = newLiveEntry(leaf, old.rel, m)
				e.rare = old.rare
			default:
				e = newEntry(rel, leaf)
			}
			if old != nil {
				old.dead = true
				delete(entries, rel)
			}
			if e != nil {
				entries[rel] = e
			}
			if old != nil || e != nil {
				changes = append(changes, liveChange{old, e})
			}
		}
		if round%50 == 0 {
			var all []*liveEntry
			for _, e := range entries {
				if e.readable() {
					all = append(all, e)
				}
			}
			o.rebuild(all)
		} else {
			o.update(changes)
		}
		for i := range liveSlots {
			var want []*liveEntry
			for _, e := range entries {
				if e.slots()&(1<<i) != 0 {
					want = append(want, e)
				}
			}
			slices.SortFunc(want, liveCompare)
			if !slices.Equal(o[i], want) {
				t.Fatalf("round %d (%d changes), list %d: %d entries, want %d", round, len(changes), i, len(o[i]), len(want))
			}
		}
	}
}

// A record shows in the lists of its folder's status and of its type,
// except a record in confirmed/<type> of another type, which ListMemories
// lists only when no type is asked for.
func TestLiveEntrySlots(t *testing.T) {
	leaf := func(rel string) int {
		i, ok := leafIndex(rel)
		if !ok {
			t.Fatalf("%s is no memory folder", rel)
		}
		return i
	}
	fact := newLiveEntry(leaf("memory/confirmed/fact"), "memory/confirmed/fact/a.md", &mdstore.Memory{Type: "fact"})
	odd := newLiveEntry(leaf("memory/confirmed/fact"), "memory/confirmed/fact/b.md", &mdstore.Memory{Type: "concept"})
	inbox := newLiveEntry(leaf("memory/inbox"), "memory/inbox/c.md", &mdstore.Memory{Type: "lesson"})
	inbox.rare = &liveRare{secret: &mdstore.InvalidFile{}}
	bad := &liveEntry{leaf: uint8(leaf("memory/inbox")), rare: &liveRare{bad: &mdstore.InvalidFile{}}}
	st, f, le := statusIndex("confirmed"), typeIndex("fact"), typeIndex("lesson")
	in := statusIndex("inbox")
	for _, tc := range []struct {
		e    *liveEntry
		want []int
	}{
		{fact, []int{slot(0, 0, 0), slot(0, st, 0), slot(0, 0, f), slot(0, st, f), slot(1, 0, 0), slot(1, st, 0), slot(1, 0, f), slot(1, st, f)}},
		{odd, []int{slot(0, 0, 0), slot(0, st, 0), slot(1, 0, 0), slot(1, st, 0)}},
		{inbox, []int{slot(0, 0, 0), slot(0, in, 0), slot(0, 0, le), slot(0, in, le)}},
		{bad, nil},
	} {
		var want uint32
		for _, i := range tc.want {
			want |= 1 << i
		}
		if got := tc.e.slots(); got != want {
			t.Errorf("%s (type %d): slots %b, want %b", tc.e.rel, tc.e.typ, got, want)
		}
	}
}
