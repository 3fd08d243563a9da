package playbook

import (
	"slices"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// TestCurationIndexesTheCategoriesItMatches holds a curation to the
// candidate indexes its lessons are matched with: a run with no lesson to
// plan, or whose lessons are skipped before matching (under
// --min-confidence, not actionable), reads and builds none; a run of two
// lessons in two categories reads those two, on every core, and no other;
// a lesson in a category without bullets is matched in all of them, whose
// indexes are all read.
func TestCurationIndexesTheCategoriesItMatches(t *testing.T) {
	open := func(t *testing.T) (*Playbook, *countingIndexes, []string) {
		s := appWorldStore(t)
		pb, _, _, err := Open(s, true, now.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		var cats []string
		for _, b := range pb.Active() {
			if !slices.Contains(cats, b.Category) {
				cats = append(cats, b.Category)
			}
		}
		if len(cats) < 3 {
			t.Fatalf("the playbook has %d categories, want at least 3", len(cats))
		}
		return pb, countIndexes(t, pb, s), cats
	}
	reflection := func(lessons ...mdstore.Lesson) []*mdstore.Reflection {
		return []*mdstore.Reflection{{ID: "r-prepare", CuratorStatus: "pending", CreatedAt: now, Lessons: lessons}}
	}
	text := "Always check the API response status code before parsing the body of a page."
	low, high := 0.1, 0.9

	t.Run("no lesson", func(t *testing.T) {
		pb, c, _ := open(t)
		if _, err := PlanCuration(pb, nil, DefaultSettings()); err != nil {
			t.Fatal(err)
		}
		if c.read.Load() != 0 || c.built.Load() != 0 {
			t.Errorf("no lesson: %d candidate indexes read, %d built", c.read.Load(), c.built.Load())
		}
	})
	t.Run("lessons skipped before matching", func(t *testing.T) {
		pb, c, cats := open(t)
		var ls []mdstore.Lesson
		for _, cat := range cats {
			ls = append(ls, mdstore.Lesson{Content: text, Category: cat, Confidence: &low},
				mdstore.Lesson{Content: "ok", Category: cat, Confidence: &high})
		}
		plan, err := PlanCuration(pb, reflection(ls...), DefaultSettings())
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range plan.Actions {
			if a.Type != ActSkip {
				t.Fatalf("lesson %d: %s, want a skip", a.Lesson, a.Type)
			}
		}
		if c.read.Load() != 0 || c.built.Load() != 0 {
			t.Errorf("every lesson skipped: %d candidate indexes read, %d built", c.read.Load(), c.built.Load())
		}
	})
	t.Run("two lessons, two categories", func(t *testing.T) {
		pb, c, cats := open(t)
		ls := []mdstore.Lesson{{Content: text, Category: cats[0], Confidence: &high}, {Content: text + " Retry once.", Category: cats[1], Confidence: &high}}
		if _, err := PlanCuration(pb, reflection(ls...), DefaultSettings()); err != nil {
			t.Fatal(err)
		}
		if got := c.read.Load(); got != 2 {
			t.Errorf("two categories matched: %d candidate indexes read, want 2", got)
		}
		if n := len(pb.Matcher.pending); n != len(cats)-2 {
			t.Errorf("%d categories left unindexed, want %d", n, len(cats)-2)
		}
	})
	t.Run("a category without bullets", func(t *testing.T) {
		pb, c, cats := open(t)
		ls := []mdstore.Lesson{{Content: text, Category: "brand-new", Confidence: &high}}
		if _, err := PlanCuration(pb, reflection(ls...), DefaultSettings()); err != nil {
			t.Fatal(err)
		}
		if got := c.read.Load(); got != int64(len(cats)) {
			t.Errorf("a lesson in a new category: %d candidate indexes read, want all %d", got, len(cats))
		}
	})
}
