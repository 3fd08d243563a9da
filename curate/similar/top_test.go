package similar

import (
	"fmt"
	"sort"
	"testing"
)

// TestTopAgreesWithBruteForce holds Top to scoring every item on a
// repetitive vocabulary, where nearly every item is a candidate and many
// bounds and scores are equal: the same first limit items, in the same
// order, with the same scores, with and without a filter; also below
// (1 − dirMix)/2, where every item is bounded from both sides.
func TestTopAgreesWithBruteForce(t *testing.T) {
	ix, bf := NewIndex(NewLexical()), NewBruteForce(NewLexical())
	addRepetitive(3000, ix, bf)
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

// countingEngine is the lexical engine's scores, counted by pair.
type countingEngine struct {
	lex    *Lexical
	scored map[[2]string]int
}

func (e *countingEngine) Name() string { return "counting" }

func (e *countingEngine) Score(a, b string) float64 {
	e.scored[[2]string{a, b}]++
	return e.lex.Score(a, b)
}

// TestSearchScoresEachItemOnce asks a search at one floor and then at
// lower ones, as a query that too few items reach does: each answer is
// the one a search at that floor alone gives, with the lexical engine's
// candidate indexes and with an engine that scores every item, and no item
// is scored twice in one search.
func TestSearchScoresEachItemOnce(t *testing.T) {
	counting := &countingEngine{lex: NewLexical(), scored: map[[2]string]int{}}
	lexA, lexB := NewIndex(NewLexical()), NewIndex(NewLexical())
	lex2A, lex2B := NewIndex(NewLexical()), NewIndex(NewLexical())
	countA, countB := NewIndex(counting), NewIndex(counting)
	for i := range 600 {
		text := repetitiveText(i)
		id := fmt.Sprintf("m-%05d", i)
		a, b := lexA, lex2A
		ca := countA
		if i%3 == 0 {
			a, b, ca = lexB, lex2B, countB
		}
		a.Add(id, text)
		b.Add(id, text)
		ca.Add(id, text)
	}
	for _, q := range []string{"pool runner retry", "deploy retry retry", "schema index after 12 timeout", "nothing alike here"} {
		lexical, counted := NewSearch([]*Index{lexA, lexB}, q), NewSearch([]*Index{countA, countB}, q)
		clear(counting.scored)
		for _, floor := range []float64{0.6, 0.45, 0.3, 0.1} {
			want := firstOf(TopOf([]*Index{lex2A, lex2B}, q, floor, 10, nil), 10)
			if got := firstOf(lexical.Top(floor, 10, nil), 10); got != want {
				t.Fatalf("%q at %.2f after higher floors: %s, want %s", q, floor, got, want)
			}
			if got := firstOf(counted.Top(floor, 10, nil), 10); got != want {
				t.Fatalf("%q at %.2f, every item scored: %s, want %s", q, floor, got, want)
			}
		}
		if len(counting.scored) != 600 {
			t.Fatalf("%q: %d items scored, want all 600", q, len(counting.scored))
		}
		for pair, n := range counting.scored {
			if n != 1 {
				t.Fatalf("%q: %s scored %d times in one search", q, pair[1], n)
			}
		}
	}
}

// firstOf prints the first n matches.
func firstOf(ms []Match, n int) string {
	return fmt.Sprint(ms[:min(n, len(ms))])
}

// TestSearchRaisesItsFloor asks a search for the 20 highest and then for
// the 5 highest at a low floor: the low floor is raised to the fifth
// highest score the first found among the items the filter takes, and the
// answers are those of a search at the low floor alone, with and without
// a filter (a floor raised by the scores of items the filter refuses
// would leave out items it takes).
func TestSearchRaisesItsFloor(t *testing.T) {
	ix, fresh := NewIndex(NewLexical()), NewIndex(NewLexical())
	addRepetitive(2000, ix, fresh)
	odd := func(id string) bool { return id[len(id)-1]%2 == 1 }
	raisedApart := false // a filter raised a floor to another score
	for _, q := range []string{"pool runner retry", "the postgres pool uses cache", "deploy retry retry", "postgres pool cache timeout"} {
		var floors []float64
		for _, filter := range []func(string) bool{nil, odd} {
			sr := NewSearch([]*Index{ix}, q)
			sr.Top(0.5, 20, nil)
			var known []float64
			for it, s := range sr.scores {
				if filter == nil || filter(it.id) {
					known = append(known, s)
				}
			}
			if len(known) < 5 {
				t.Fatalf("%q: %d items scored, the test wants at least 5", q, len(known))
			}
			sort.Sort(sort.Reverse(sort.Float64Slice(known)))
			floor := sr.reached(5, filter)
			if want := known[4] - topMargin; floor != want {
				t.Fatalf("%q: floor raised to %v, want %v", q, floor, want)
			}
			floors = append(floors, floor)
			want := firstOf(TopOf([]*Index{fresh}, q, 0.1, 5, filter), 5)
			if got := firstOf(sr.Top(0.1, 5, filter), 5); got != want {
				t.Fatalf("%q at 0.1 after 0.5: %s, want %s", q, got, want)
			}
		}
		raisedApart = raisedApart || floors[0] != floors[1]
	}
	if !raisedApart {
		t.Fatal("no query has the filter raise its floor to another score; the test wants one")
	}
}

// repetitiveText is the i-th text of a store of repetitive words, where
// nearly every item is a candidate and many bounds and scores are equal.
func repetitiveText(i int) string {
	words := []string{"postgres", "pool", "cache", "redis", "deploy", "build", "runner", "queue", "timeout", "retry", "index", "schema"}
	return fmt.Sprintf("The %s %s uses %s after %d %s", words[i%12], words[(i/12)%12], words[(i/144)%12], i%97, words[(i/7)%12])
}

// addRepetitive adds the first n repetitive texts, as m-00000, m-00001…,
// to each of to.
func addRepetitive(n int, to ...interface{ Add(id, text string) }) {
	for i := range n {
		for _, x := range to {
			x.Add(fmt.Sprintf("m-%05d", i), repetitiveText(i))
		}
	}
}
