package similar

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// A text's words end with its negation marks when it holds a negation, and
// the marks read back as what the analysis found.
func TestWordsEndWithNegationMarks(t *testing.T) {
	e := NewLexical()
	if ws := e.Words("Check the balance before paying."); isMarks(ws[len(ws)-1]) {
		t.Fatalf("marks on a text without a negation: %q", ws)
	}
	text := "Never retry the payment, but check the balance; do not guess the card."
	ws := e.Words(text)
	last := ws[len(ws)-1]
	if !isMarks(last) {
		t.Fatalf("no marks after the words of %q: %q", text, ws)
	}
	for _, w := range ws[:len(ws)-1] {
		if strings.HasPrefix(w, "!") {
			t.Fatalf("a word taken for marks: %q", w)
		}
	}
	d := e.analyze(text)
	m := parseMarks(last, len(ws)-1)
	if m == unknownMarks || m.negations != d.negations || m.String() != last {
		t.Fatalf("marks %q read as %+v; the analysis has %d negations", last, m, d.negations)
	}
	for i, tm := range d.terms {
		if tm.negated != containsPos(m.negated, i) || tm.hedged != containsPos(m.hedged, i) {
			t.Fatalf("word %d (%s): negated %v hedged %v, marks say otherwise (%q)", i, tm.text, tm.negated, tm.hedged, last)
		}
	}
}

func containsPos(ps []int32, i int) bool {
	for _, p := range ps {
		if int(p) == i {
			return true
		}
	}
	return false
}

// Marks that do not read as marks are unknown, never a guess.
func TestMarksThatDoNotRead(t *testing.T) {
	for _, s := range []string{
		marksPrefix, marksPrefix + "?", marksPrefix + "1 - -  x", marksPrefix + "0 - -",
		marksPrefix + "-1 - -", marksPrefix + "1 5 -", marksPrefix + "1 2,1 -", marksPrefix + "1 1,1 -",
		marksPrefix + "1 a -", marksPrefix + "1 - 9", marksPrefix + "1 - 3-1", marksPrefix + "1 - 2-9",
		marksPrefix + "1 - 1-3,2", marksPrefix + "1 - 1-", marksPrefix + "1 - -3",
	} {
		if m := parseMarks(s, 5); m != unknownMarks {
			t.Errorf("parseMarks(%q) = %+v, want unknown", s, m)
		}
	}
	if m := parseMarks(marksPrefix+"2 0,3 - ", 5); m == unknownMarks || m.negations != 2 || len(m.negated) != 2 || m.hedged != nil {
		t.Errorf("good marks read as %+v", m)
	}
	m := &textMarks{negations: 1, negated: []int32{2, 3}, hedged: []int32{0, 2, 3, 4, 5, 7, 9, 10, 11}}
	if s := m.String(); s != marksPrefix+"1 2,3 0,2-5,7,9-11" {
		t.Errorf("marks written as %q", s)
	}
	if back := parseMarks(m.String(), 12); fmt.Sprint(back) != fmt.Sprint(m) {
		t.Errorf("marks %q read back as %+v", m.String(), back)
	}
}

// Items added by their words are scored from their words and marks alone,
// as the engine scores their texts, texts that differ by a negation, its
// reach or a number included: the text is never asked for. Marks that do
// not read (a damaged store) have the text asked for, with the same scores.
func TestIndexScoresNegationsFromWords(t *testing.T) {
	base := playbookBullets(t)[:60]
	r := rand.New(rand.NewPCG(11, 12))
	var items []string
	for i := 0; i < 400; i++ {
		s := base[r.IntN(len(base))]
		ws := strings.Fields(s)
		k := r.IntN(len(ws))
		switch r.IntN(5) {
		case 0:
			ws = append(ws[:k:k], append([]string{"not"}, ws[k:]...)...)
		case 1:
			ws = append([]string{"Never"}, ws...)
		case 2:
			ws = append(ws, "but", "do", "not", "retry", fmt.Sprint(r.IntN(3)), "times")
		case 3:
			ws = append(ws[:k:k], append([]string{"avoid", "nothing", "and", "no"}, ws[k:]...)...)
		}
		items = append(items, strings.Join(ws, " "))
	}
	e := NewLexical()
	ids, texts, table, terms := byWords(e, items)
	marked := 0
	for _, w := range table {
		if isMarks(w) {
			marked++
		}
	}
	if marked < 20 {
		t.Fatalf("%d distinct marks: the test data does not exercise them", marked)
	}
	bf := NewBruteForce(e)
	for _, id := range ids {
		bf.Add(id, texts[id])
	}
	ix := NewIndex(e)
	ix.SetText(func(id string) string { t.Fatalf("text of %s asked for", id); return "" })
	ix.AddAllTerms(ids, e.Vocabulary(table), terms)

	// The same table with every marks word damaged: those items are read.
	damaged := append([]string(nil), table...)
	for i, w := range damaged {
		if isMarks(w) {
			damaged[i] = w + " x"
		}
	}
	asked := 0
	rd := NewIndex(e)
	rd.SetText(func(id string) string { asked++; return texts[id] })
	rd.AddAllTerms(ids, e.Vocabulary(damaged), terms)

	for qi := 0; qi < 40; qi++ {
		q := items[r.IntN(len(items))]
		want := fmt.Sprint(bf.Above(q, 0.3, nil))
		if got := fmt.Sprint(ix.Above(q, 0.3, nil)); got != want {
			t.Fatalf("Above(%q):\n index %s\n brute %s", q, got, want)
		}
		if got := fmt.Sprint(rd.Above(q, 0.3, nil)); got != want {
			t.Fatalf("Above(%q) with damaged marks:\n index %s\n brute %s", q, got, want)
		}
	}
	if asked == 0 {
		t.Error("no text asked for with damaged marks")
	}
	if fmt.Sprint(ix.Pairs(0.6)) != fmt.Sprint(bf.Pairs(0.6)) {
		t.Error("Pairs(0.6) differ from brute force")
	}
}
