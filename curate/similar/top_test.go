package similar

import (
	"fmt"
	"testing"
)

// TestTopAgreesWithBruteForce holds Top to scoring every item on a
// repetitive vocabulary, where nearly every item is a candidate and many
// bounds and scores are equal: the same first limit items, in the same
// order, with the same scores, with and without a filter; also below
// (1 − dirMix)/2, where every item is bounded from both sides.
func TestTopAgreesWithBruteForce(t *testing.T) {
	words := []string{"postgres", "pool", "cache", "redis", "deploy", "build", "runner", "queue", "timeout", "retry", "index", "schema"}
	ix, bf := NewIndex(NewLexical()), NewBruteForce(NewLexical())
	for i := range 3000 {
		text := fmt.Sprintf("The %s %s uses %s after %d %s", words[i%12], words[(i/12)%12], words[(i/144)%12], i%97, words[(i/7)%12])
		id := fmt.Sprintf("m-%05d", i)
		ix.Add(id, text)
		bf.Add(id, text)
	}
	odd := func(id string) bool { return id[len(id)-1]%2 == 1 }
	for _, q := range []string{"pool runner retry", "postgres build retry", "deploy retry retry", "the cache", "schema index after 12 timeout", "nothing alike here"} {
		for _, c := range []struct {
			min   float64
			limit int
		}{{0.3, 1}, {0.3, 5}, {0.3, 20}, {0.1, 20}, {0.01, 5}} {
			limit := c.limit
			for _, filter := range []func(string) bool{nil, odd} {
				got := ix.Top(q, c.min, limit, filter)
				want := bf.Above(q, c.min, filter)
				if len(got) < min(limit, len(want)) {
					t.Fatalf("%q limit %d: %d results, want %d", q, limit, len(got), min(limit, len(want)))
				}
				for i := range min(limit, len(want)) {
					if got[i] != want[i] {
						t.Fatalf("%q limit %d: result %d is %v, want %v\n got %v\nwant %v", q, limit, i, got[i], want[i], got[:limit], want[:limit])
					}
				}
				seen := map[string]bool{}
				for _, m := range got {
					if seen[m.ID] {
						t.Fatalf("%q limit %d: %s twice", q, limit, m.ID)
					}
					seen[m.ID] = true
				}
			}
		}
	}
}
