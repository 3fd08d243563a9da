package similar

import (
	"fmt"
	"testing"
)

// An index added by words that lets go of the analyses it made answers as
// one that kept them all: what it let go of is made again from the words,
// its text never asked for, and it holds no more than it was told to keep.
func TestForgetKeepsAnswers(t *testing.T) {
	base := playbookBullets(t)
	items := append(generatedBullets(base, 400, 7), base...)
	queries := append(generatedBullets(base, 40, 8), base[:20]...)
	e := NewLexical()
	ids, texts, table, terms := byWords(e, items)
	asked := 0
	keeping, forgetting := NewIndex(e), NewIndex(e)
	keeping.SetText(func(id string) string { return texts[id] })
	forgetting.SetText(func(id string) string { asked++; return texts[id] })
	for _, ix := range []*Index{keeping, forgetting} {
		ix.AddAllTerms(ids, e.Vocabulary(table), terms)
	}
	const keep = 30
	for _, q := range queries {
		for _, min := range []float64{0.3, 0.6} {
			a := fmt.Sprint(keeping.Top(q, min, 5, nil))
			b := fmt.Sprint(forgetting.Top(q, min, 5, nil))
			if a != b {
				t.Fatalf("Top(%q, %v): %s kept, %s let go of", q, min, a, b)
			}
			forgetting.Forget(keep)
			if n := forgetting.Analysed(); n > keep {
				t.Fatalf("%d analyses kept, bound %d", n, keep)
			}
		}
	}
	if keeping.Analysed() <= 3*keep {
		t.Fatalf("the queries analysed %d items: too few to go past the bound", keeping.Analysed())
	}
	if asked != 0 {
		t.Errorf("texts asked %d times for %d items analysed: items added by their words are scored from them", asked, keeping.Analysed())
	}
}

// Items removed (the index compacts, adding the others again by their
// texts) leave nothing behind for Forget: it counts only items that hold
// an analysis it may let go of.
func TestForgetAfterRemove(t *testing.T) {
	base := playbookBullets(t)
	items := append(generatedBullets(base, 3000, 7), base...)
	e := NewLexical()
	ids, texts, table, terms := byWords(e, items)
	ix := NewIndex(e)
	ix.SetText(func(id string) string { return texts[id] })
	ix.AddAllTerms(ids, e.Vocabulary(table), terms)
	ix.Top(base[0], 0.3, 5, nil)
	if ix.Analysed() == 0 {
		t.Fatal("the query analysed no item")
	}
	for _, id := range ids[:len(ids)*2/3] {
		ix.Remove(id)
	}
	live := map[*item]bool{}
	for _, it := range ix.items {
		if it != nil {
			live[it] = true
		}
	}
	for _, it := range ix.analysed {
		if !live[it] {
			t.Fatalf("%s: removed or added again, still counted", it.id)
		}
	}
}

// byWords names items B-00000, B-00001, … and gives their texts by id,
// the word table and each item's words, for an index added by words.
func byWords(e *Lexical, items []string) (ids []string, texts map[string]string, table []string, terms [][]uint32) {
	table, terms = termsOf(e, items)
	ids = make([]string, len(items))
	texts = map[string]string{}
	for i, text := range items {
		ids[i] = fmt.Sprintf("B-%05d", i)
		texts[ids[i]] = text
	}
	return ids, texts, table, terms
}
