package similar

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The same words with their roles swapped are not the same statement.
func TestLexicalWordOrderLowersScore(t *testing.T) {
	l := NewLexical()
	for _, c := range [][2]string{
		{"The dog is chasing the cat", "The cat is chasing the dog"},
		{"Call the login API before the search API", "Call the search API before the login API"},
	} {
		if s := l.Score(c[0], c[1]); s >= 0.95 {
			t.Errorf("Score(%q, %q) = %.3f, want < 0.95", c[0], c[1], s)
		}
		if s := l.Score(c[0], c[0]); s != 1 {
			t.Errorf("Score(%q, itself) = %.3f, want 1", c[0], s)
		}
	}
}

// The sentence-level check only ever lowers the word-level score: the
// candidate index's upper bound rests on that.
func TestSentenceCheckOnlyLowers(t *testing.T) {
	base := playbookBullets(t)
	texts := append(generatedBullets(base, 300, 3), base[:100]...)
	with := NewLexical()
	p := with.p
	p.noSentence = true
	without := newLexical(p)
	lowered := 0
	for i, a := range texts {
		b := texts[(i*7+1)%len(texts)]
		s, w := with.Score(a, b), without.Score(a, b)
		if s > w+1e-12 {
			t.Fatalf("Score(%q, %q) = %.6f with the sentence check, %.6f without", a, b, s, w)
		}
		if s < w {
			lowered++
		}
	}
	if lowered == 0 {
		t.Error("the sentence check lowered no score")
	}
	t.Logf("lowered %d of %d", lowered, len(texts))
}

// orderAgreement, worked out as the longest increasing run of places, is
// the longest common subsequence of the shared words, to the last bit:
// texts of the playbook and their words shuffled.
func TestOrderAgreementIsTheCommonSubsequence(t *testing.T) {
	base := playbookBullets(t)
	texts := append(generatedBullets(base, 200, 5), base[:100]...)
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 400; i++ {
		ws := strings.Fields(texts[r.IntN(len(texts))])
		r.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
		texts = append(texts, strings.Join(ws, " "))
	}
	l := NewLexical()
	below := 0
	for i, a := range texts {
		da := l.analyze(a)
		for _, b := range []string{texts[(i*7+1)%len(texts)], texts[(i+200)%len(texts)]} {
			db := l.analyze(b)
			got, want := orderAgreement(da, db), orderAgreementByTable(da, db)
			if got != want {
				t.Fatalf("orderAgreement(%q, %q) = %v, want %v", a, b, got, want)
			}
			if want < 1 {
				below++
			}
		}
	}
	if below < 100 {
		t.Fatalf("only %d pairs out of order: the test data does not exercise the subsequence", below)
	}
}

// orderAgreementByTable is orderAgreement as the longest common
// subsequence of the shared words, with maps and a table: the
// definition the faster one is held to. orderAgreement is the share of the content words two texts have in
// common that come in the same order in both: the longest common
// subsequence of those words over their number; 1 when they share fewer
// than two. The parts of identifiers (show_api_doc) are names, not
// sentence order, and are left out.
func orderAgreementByTable(a, b *doc) float64 {
	inB := make(map[string]bool, len(b.terms))
	for _, t := range b.terms {
		if ordered(t) {
			inB[t.key] = true
		}
	}
	var sa []string
	for _, t := range a.terms {
		if ordered(t) && inB[t.key] {
			sa = append(sa, t.key)
		}
	}
	if len(sa) < 2 {
		return 1
	}
	inA := make(map[string]bool, len(sa))
	for _, k := range sa {
		inA[k] = true
	}
	var sb []string
	for _, t := range b.terms {
		if ordered(t) && inA[t.key] {
			sb = append(sb, t.key)
		}
	}
	// one row of the longest-common-subsequence table at a time
	prev, cur := make([]int, len(sb)+1), make([]int, len(sb)+1)
	for _, x := range sa {
		for j, y := range sb {
			switch {
			case x == y:
				cur[j+1] = prev[j] + 1
			case prev[j+1] > cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(sb)]) / float64(len(sa))
}
