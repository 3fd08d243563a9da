package playbook

import (
	"slices"
	"testing"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// A bullet set answers as a map of every bullet by id would: the later of
// two bullets with one id wins, a bullet put replaces the one it names,
// and each bullet is walked once.
func TestBulletSetAnswersAsAMap(t *testing.T) {
	mk := func(id, cat string) *mdstore.Bullet { return &mdstore.Bullet{ID: id, Category: cat} }
	in := []*mdstore.Bullet{mk("B-2", "x"), mk("A-1", "x"), mk("B-2", "y"), mk("C-3", "x")}
	want := map[string]*mdstore.Bullet{}
	for _, b := range in {
		want[b.ID] = b
	}
	s := newBulletSet(in, false)
	check := func(step string) {
		t.Helper()
		if s.len() != len(want) {
			t.Fatalf("%s: len %d, want %d", step, s.len(), len(want))
		}
		var walked []string
		s.each(func(b *mdstore.Bullet) {
			walked = append(walked, b.ID)
			if want[b.ID] != b {
				t.Errorf("%s: walked %s (%s), want the bullet %v", step, b.ID, b.Category, want[b.ID])
			}
		})
		slices.Sort(walked)
		if len(slices.Compact(slices.Clone(walked))) != len(walked) || len(walked) != len(want) {
			t.Errorf("%s: walked %v", step, walked)
		}
		for id, b := range want {
			if s.get(id) != b {
				t.Errorf("%s: get(%s) = %v, want %v", step, id, s.get(id), b)
			}
		}
		if s.get("Z-9") != nil {
			t.Errorf("%s: an unknown id was found", step)
		}
	}
	check("read")
	if s.get("B-2").Category != "y" {
		t.Fatalf("the later B-2 should win")
	}
	for _, b := range []*mdstore.Bullet{mk("A-1", "z"), mk("AA-1", "x"), mk("A-1", "w")} {
		s.put(b)
		want[b.ID] = b
		check("put " + b.ID + " " + b.Category)
	}
}

// Two id-sorted lists merge into one; an id in both is reported.
func TestMergeByID(t *testing.T) {
	sum := func(id string) *cache.BulletSummary { return &cache.BulletSummary{ID: id} }
	ids := func(l []*cache.BulletSummary) (out []string) {
		for _, s := range l {
			out = append(out, s.ID)
		}
		return out
	}
	got, ok := mergeByID([]*cache.BulletSummary{sum("A"), sum("C")}, []*cache.BulletSummary{sum("B"), sum("D")})
	if !ok || !slices.Equal(ids(got), []string{"A", "B", "C", "D"}) {
		t.Fatalf("merged %v %v", ids(got), ok)
	}
	if got, ok := mergeByID([]*cache.BulletSummary{sum("A"), sum("C")}, []*cache.BulletSummary{sum("C")}); ok || len(got) != 3 {
		t.Fatalf("an id in both lists: %v %v", ids(got), ok)
	}
}
