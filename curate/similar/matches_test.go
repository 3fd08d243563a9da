package similar

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

// pairSim is the meaning-only similarity of two words, computed the
// plain way: every shared concept of their sorted lists, and the vector
// when b is among a's neighbours. meaningMatches must give the same.
func (l *Lexical) pairSim(a, b *term) float64 {
	best := 0.0
	if a.vec >= 0 && b.vec >= 0 {
		if _, ok := slices.BinarySearch(a.near, b.vec); ok {
			best = l.neighbourSim(a.wordInfo, b.vec, b.vecInv)
		}
	}
	i, j := 0, 0
	for i < len(a.concepts) && j < len(b.concepts) {
		ca, cb := a.concepts[i], b.concepts[j]
		switch {
		case ca.id < cb.id:
			i++
		case ca.id > cb.id:
			j++
		default:
			best = max(best, l.conceptSim[ca.dist+cb.dist])
			i++
			j++
		}
	}
	return best
}

// The looked-up matches of two texts are, word by word, the plain
// pairwise ones: on the AppWorld bullets against each other and on the
// SICK sentence pairs (which hold many synonyms and hypernyms).
func TestMeaningMatchesArePairwise(t *testing.T) {
	l := NewLexical()
	var pairs [][2]string
	bs := playbookBullets(t)
	for i := range bs {
		pairs = append(pairs, [2]string{bs[i], bs[(i*7+3)%len(bs)]})
	}
	if f, err := os.Open("../../../shared/data/sick_train.tsv"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if cols := strings.Split(sc.Text(), "\t"); len(cols) >= 3 {
				pairs = append(pairs, [2]string{cols[1], cols[2]})
			}
		}
		f.Close()
	}
	pairs = append(pairs, [2]string{"", "a text"}, [2]string{"the the the", "of and"})
	matched := 0
	for _, p := range pairs {
		a, b := l.analyze(p[0]), l.analyze(p[1])
		m := l.meaningMatches(a, b)
		// And from a's side made once, as a query scored against many
		// items has it.
		mq := l.meaningMatchesOf(newQueryMatches(a), a, b)
		for i := range a.terms {
			for j := range b.terms {
				want := l.pairSim(&a.terms[i], &b.terms[j])
				if got := m.sim[i*m.nb+j]; got != want {
					t.Fatalf("%q / %q: %q against %q: %v, want %v", p[0], p[1], a.terms[i].key, b.terms[j].key, got, want)
				}
				if got := mq.sim[i*mq.nb+j]; got != want {
					t.Fatalf("%q / %q from the query's side: %q against %q: %v, want %v", p[0], p[1], a.terms[i].key, b.terms[j].key, got, want)
				}
				if want > 0 {
					matched++
				}
			}
		}
		m.release()
		mq.release()
	}
	if matched < 1000 {
		t.Fatalf("only %d word pairs matched by meaning: the test compares too little", matched)
	}
	t.Logf("%d pairs, %d word pairs matched by meaning", len(pairs), matched)
}
