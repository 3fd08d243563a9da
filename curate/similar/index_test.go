package similar

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// The index must make the same decisions as brute force: the same best
// item and score whenever the best score reaches the merge floor, nothing
// at or above the floor otherwise, and the same lists above 0.6, 0.85, 0.9.
func TestIndexAgreesWithBruteForce(t *testing.T) {
	base := playbookBullets(t)
	items := append(generatedBullets(base, 2000, 1), base...)
	queries := append(generatedBullets(base, 80, 2), base[:20]...)
	if testing.Short() {
		items, queries = items[:500], queries[:40]
	}
	e := NewLexical()
	ix, bf := NewIndex(e), NewBruteForce(e)
	for i, text := range items {
		id := fmt.Sprintf("B-%05d", i)
		ix.Add(id, text)
		bf.Add(id, text)
	}
	// Remove and replace some items in both.
	for i := 0; i < len(items); i += 97 {
		id := fmt.Sprintf("B-%05d", i)
		ix.Remove(id)
		bf.Remove(id)
	}
	ix.Add("B-00001", queries[0])
	bf.Add("B-00001", queries[0])
	if ix.Len() != bf.Len() {
		t.Fatalf("Len %d vs %d", ix.Len(), bf.Len())
	}

	odd := func(id string) bool { return id[len(id)-1]%2 == 1 }
	merges := 0
	for qi, q := range queries {
		// One brute-force pass per query; the expected answers derive from it.
		scores := bf.all(q, nil)
		for fi, filter := range []func(string) bool{nil, odd} {
			var kept []Match
			for _, m := range scores {
				if filter == nil || filter(m.ID) {
					kept = append(kept, m)
				}
			}
			want := bestOf(kept)
			if qi < 5 {
				if b, _ := bf.Best(q, filter); b != want {
					t.Fatalf("BruteForce.Best = %+v, want %+v", b, want)
				}
			}
			got, ok := ix.Best(q, filter)
			if want.Score >= MergeFloor {
				merges++
				if !ok || got != want {
					t.Errorf("query %d/%d: Best = %+v, %v; brute force %+v", qi, fi, got, ok, want)
				}
			} else if ok && got.Score >= MergeFloor {
				t.Errorf("query %d/%d: Best = %+v, brute force best is %+v", qi, fi, got, want)
			}
		}
		for _, min := range []float64{0.6, 0.85, 0.9} {
			var want []Match
			for _, m := range scores {
				if m.Score >= min-1e-9 {
					want = append(want, m)
				}
			}
			sortMatches(want)
			if qi < 5 {
				if b := bf.Above(q, min, nil); fmt.Sprint(b) != fmt.Sprint(want) {
					t.Fatalf("BruteForce.Above = %v, want %v", b, want)
				}
			}
			if got := ix.Above(q, min, nil); fmt.Sprint(want) != fmt.Sprint(got) {
				t.Errorf("query %d: Above(%.2f) = %v; brute force %v", qi, min, got, want)
			}
		}
	}
	if merges < len(queries)/2 {
		t.Errorf("only %d of %d queries reach the merge floor: the test data does not exercise the index", merges, 2*len(queries))
	}
}

func TestIndexPairsAgreeWithBruteForce(t *testing.T) {
	base := playbookBullets(t)
	items := append(generatedBullets(base, 250, 3), base[:50]...)
	e := NewLexical()
	ix, bf := NewIndex(e), NewBruteForce(e)
	for i, text := range items {
		id := fmt.Sprintf("P-%04d", i)
		ix.Add(id, text)
		bf.Add(id, text)
	}
	for _, min := range []float64{0.6, 0.9} {
		want, got := bf.Pairs(min), ix.Pairs(min)
		if len(want) == 0 {
			t.Fatalf("no pairs above %.2f: the test data does not exercise Pairs", min)
		}
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Errorf("Pairs(%.2f): index found %d pairs, brute force %d", min, len(got), len(want))
		}
	}
}

func TestIndexPlaybookDuplicates(t *testing.T) {
	ix := NewIndex(NewLexical())
	for i, b := range playbookBullets(t) {
		ix.Add(fmt.Sprintf("shr-%05d", i), b)
	}
	pairs := ix.Pairs(0.90)
	exact := 0
	for _, p := range pairs {
		if p.Score == 1 {
			exact++
		}
	}
	if exact < 5 {
		t.Errorf("Pairs(0.90) found %d exact duplicates in the AppWorld playbook, want >= 5 (%d pairs)", exact, len(pairs))
	}
}

func TestIndexEmptyAndOtherEngines(t *testing.T) {
	ix := NewIndex(NewLexical())
	if _, ok := ix.Best("anything", nil); ok {
		t.Error("Best on an empty index reported a match")
	}
	ix.Add("a", "Use pagination to collect all results")
	ix.Add("b", "Round money to two decimals")
	if m, ok := ix.Best("collect all results with pagination", nil); !ok || m.ID != "a" {
		t.Errorf("Best = %+v, %v", m, ok)
	}
	ix.Remove("a")
	ix.Remove("nope")
	if m, ok := ix.Best("collect all results with pagination", nil); ok && m.Score >= MergeFloor {
		t.Errorf("removed item still matches: %+v", m)
	}
	// A non-lexical engine is scanned in full.
	ox := NewIndex(exactEngine{})
	ox.Add("x", "same")
	ox.Add("y", "other")
	if m, ok := ox.Best("same", nil); !ok || m != (Match{"x", 1}) {
		t.Errorf("Best with another engine = %+v, %v", m, ok)
	}
}

func bestOf(ms []Match) Match {
	var best Match
	for i, m := range ms {
		if i == 0 || m.Score > best.Score || (m.Score == best.Score && m.ID < best.ID) {
			best = m
		}
	}
	return best
}

type exactEngine struct{}

func (exactEngine) Name() string { return "exact" }
func (exactEngine) Score(a, b string) float64 {
	if a == b {
		return 1
	}
	return 0
}

// An index built from stored words (AddTerms) answers exactly as one built
// from the texts, and asks for the text of the items it scores only.
func TestIndexByTermsEqualsIndexByText(t *testing.T) {
	base := playbookBullets(t)
	items := append(generatedBullets(base, 600, 3), base...)
	queries := append(generatedBullets(base, 30, 4), base[:10]...)
	e := NewLexical()
	byText := NewIndex(e)
	byTerms := NewIndex(NewLexical()) // another instance, as a later run has
	texts := map[string]string{}
	asked := map[string]bool{}
	byTerms.SetText(func(id string) string { asked[id] = true; return texts[id] })
	table, stored := termsOf(e, items)
	v := NewLexical().Vocabulary(table)
	var ids []string
	for i, text := range items {
		id := fmt.Sprintf("B-%05d", i)
		texts[id] = text
		byText.Add(id, text)
		ids = append(ids, id)
	}
	half := len(items) / 2
	byTerms.AddAllTerms(ids[:half], v, stored[:half])
	for i := half; i < len(items); i++ {
		byTerms.AddTerms(ids[i], v, stored[i])
	}
	for _, q := range queries {
		m1, ok1 := byText.Best(q, nil)
		m2, ok2 := byTerms.Best(q, nil)
		if m1 != m2 || ok1 != ok2 {
			t.Fatalf("Best(%q): %v %v vs %v %v", q, m1, ok1, m2, ok2)
		}
	}
	if len(asked) != 0 {
		t.Errorf("Best asked for %d texts of %d: items added by their words are scored from them", len(asked), len(items))
	}
	for _, q := range queries {
		for _, min := range []float64{0.3, 0.6, 0.9} {
			if a, b := fmt.Sprint(byText.Above(q, min, nil)), fmt.Sprint(byTerms.Above(q, min, nil)); a != b {
				t.Fatalf("Above(%q, %v): %s vs %s", q, min, a, b)
			}
		}
	}
}

// TestIndexPairsOfSharedSentences holds Pairs to brute force on texts that
// share whole sentences (as bullets merged from the same lessons do): many
// items reach every threshold maintenance asks for, some differ by a number
// or a negation.
func TestIndexPairsOfSharedSentences(t *testing.T) {
	var pool []string
	for _, b := range playbookBullets(t) {
		for _, s := range strings.SplitAfter(b, ". ") {
			if s = strings.TrimSpace(s); len(strings.Fields(s)) >= 6 && len(pool) < 30 {
				pool = append(pool, s)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	e := NewLexical()
	ix, bf := NewIndex(e), NewBruteForce(e)
	for i := 0; i < 300; i++ {
		parts := []string{pool[r.IntN(len(pool))], pool[r.IntN(len(pool))]}
		switch r.IntN(6) {
		case 0:
			parts = append(parts, pool[r.IntN(len(pool))])
		case 1:
			parts = append(parts, fmt.Sprintf("Retry %d times.", 1+r.IntN(2)))
		case 2:
			parts = append([]string{"Never"}, parts...)
		}
		id := fmt.Sprintf("S-%04d", i)
		ix.Add(id, strings.Join(parts, " "))
		bf.Add(id, strings.Join(parts, " "))
	}
	all := bf.Pairs(0.6)
	for _, min := range []float64{0.6, 0.75, 0.85, 0.9} {
		var want []Pair
		for _, p := range all {
			if p.Score >= min-eps {
				want = append(want, p)
			}
		}
		got := ix.Pairs(min)
		if len(want) < 20 {
			t.Fatalf("%d pairs above %.2f: the test data does not exercise Pairs", len(want), min)
		}
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Errorf("Pairs(%.2f): index found %d pairs, brute force %d", min, len(got), len(want))
		}
	}
}

// The index's bound of a candidate follows the discount of matches by
// meaning alone, which it knows from the item's words (the exact matches):
// it is lower than the bound without the discount wherever a word matches
// by meaning only, and never below the candidate's score.
func TestIndexBoundsCountMeaningLess(t *testing.T) {
	base := playbookBullets(t)
	items := append(generatedBullets(base, 1000, 7), base...)
	e := NewLexical()
	p := e.p
	p.meaningK = 0
	ix, undiscounted := NewIndex(e), NewIndex(newLexical(p))
	for i, text := range items {
		ix.Add(fmt.Sprintf("B-%05d", i), text)
		undiscounted.Add(fmt.Sprintf("B-%05d", i), text)
	}
	lower := 0
	for _, q := range generatedBullets(base, 40, 8) {
		before := map[string]float64{}
		for _, c := range undiscounted.Candidates(q, 0.6) {
			before[c.ID] = c.Bound
		}
		for _, c := range ix.Candidates(q, 0.6) {
			b, ok := before[c.ID]
			if !ok || c.Bound > b+1e-12 {
				t.Fatalf("%s: bound %.6f, without the discount %.6f (found: %v)", c.ID, c.Bound, b, ok)
			}
			if s := c.Score(); s > c.Bound+1e-9 {
				t.Fatalf("%s: score %.6f above its bound %.6f", c.ID, s, c.Bound)
			}
			if c.Bound < b-1e-9 {
				lower++
			}
		}
	}
	if lower == 0 {
		t.Error("the discount lowered no candidate's bound")
	}
}

// Every item is a candidate for its own score: with min set at exactly
// what an item scores, Candidates must still return it, whatever share
// of the score comes from words matched by meaning only, and however low
// the score (below (1 − dirMix)/2 each item is bounded from both sides). SICK's sentence
// pairs say the same thing with synonyms and hypernyms ("A man is
// playing a guitar" / "A person is playing a guitar"), and the AppWorld
// bullets against their generated variants match mostly word for word.
func TestIndexCandidatesHoldEveryScore(t *testing.T) {
	var queries, items []string
	if f, err := os.Open("../../../shared/data/sick_train.tsv"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() && len(items) < 400 {
			if cols := strings.Split(sc.Text(), "\t"); len(cols) >= 3 && cols[0] != "pair_ID" {
				queries, items = append(queries, cols[1]), append(items, cols[2])
			}
		}
		f.Close()
	}
	base := playbookBullets(t)
	items = append(items, generatedBullets(base, 200, 21)...)
	queries = append(queries[:min(len(queries), 60)], generatedBullets(base, 20, 22)...)
	e := NewLexical()
	ix := NewIndex(e)
	for i, text := range items {
		ix.Add(fmt.Sprintf("I-%04d", i), text)
	}
	c := (1 - e.p.dirMix) / 2
	checked, meaning, low, lowSeen := 0, 0, 0, 0
	for _, q := range queries {
		qd := e.analyze(q)
		for i, text := range items {
			s := e.Score(q, text)
			if s <= 0 {
				continue
			}
			if s <= c {
				// bounded from both sides, not by the query's side alone;
				// one in 16 of these checked, to keep the test short
				if lowSeen++; lowSeen%16 != 0 {
					continue
				}
				low++
			}
			ab, ba, abExact, baExact := e.directions(nil, qd, e.analyze(text))
			if e.mix(ab, ba) > e.mix(abExact, baExact)+0.05 {
				meaning++
			}
			id := fmt.Sprintf("I-%04d", i)
			found := false
			for _, cand := range ix.Candidates(q, s) {
				if cand.ID == id {
					found = true
					if cand.Bound < s-1e-9 {
						t.Fatalf("%q / %q: bound %.6f below the score %.6f", q, text, cand.Bound, s)
					}
				}
			}
			if !found {
				t.Fatalf("%q / %q scores %.6f, but is no candidate for it", q, text, s)
			}
			checked++
		}
	}
	if checked < 500 || meaning < 100 || low < 200 {
		t.Fatalf("checked %d scores, %d with a real share of matches by meaning, %d at or below %.2f: too few to test the bound", checked, meaning, low, c)
	}
	t.Logf("%d scores checked, %d with matches by meaning, %d at or below %.2f", checked, meaning, low, c)
}

// A key that is a stop word in one text and a content word's stem in the
// other ("avoid" / "avoiding") matches exactly, though postings leave
// stop words out: the item is still a candidate for its score.
func TestIndexStopWordKeysAreCandidates(t *testing.T) {
	e := NewLexical()
	for _, p := range [][2]string{{"avoiding", "avoid"}, {"avoiding the cache", "avoid the cache"}, {"avoid", "avoiding"}} {
		s := e.Score(p[0], p[1])
		ix := NewIndex(e)
		ix.Add("x", p[1])
		ix.Add("y", "an unrelated note about the build")
		found := false
		for _, c := range ix.Candidates(p[0], s) {
			if c.ID == "x" {
				found = c.Bound >= s-1e-9
			}
		}
		if !found {
			t.Errorf("%q / %q scores %.4f, but is no candidate for it", p[0], p[1], s)
		}
		if got, ok := ix.Best(p[0], nil); s >= MergeFloor && (!ok || got.ID != "x") {
			t.Errorf("%q: Best = %+v, %v; want x at %.4f", p[0], got, ok, s)
		}
	}
}

// An index that has answered queries and then drops most of its items
// (compacting them) answers the next query as brute force does.
func TestIndexQueriesAfterCompaction(t *testing.T) {
	base := playbookBullets(t)
	texts := generatedBullets(base, 3000, 31)
	e := NewLexical()
	ix, bf := NewIndex(e), NewBruteForce(e)
	for i, text := range texts {
		ix.Add(fmt.Sprintf("B-%04d", i), text)
		bf.Add(fmt.Sprintf("B-%04d", i), text)
	}
	queries := generatedBullets(base, 6, 32)
	ix.Best(queries[0], nil)
	ix.Best(queries[1], nil)
	for i := range 2000 {
		ix.Remove(fmt.Sprintf("B-%04d", i))
		bf.Remove(fmt.Sprintf("B-%04d", i))
	}
	found := 0
	for _, q := range queries {
		got, want := ix.Top(q, 0.2, 0, nil), bf.Above(q, 0.2, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: Top after the compaction %v, brute force %v", q, got, want)
		}
		found += len(want)
	}
	if found == 0 {
		t.Fatal("no query found an item: nothing compared")
	}
}
