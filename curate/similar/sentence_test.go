package similar

import (
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
