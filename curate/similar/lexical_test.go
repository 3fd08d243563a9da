package similar

import (
	"bufio"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestLexicalRanksParaphrasesAboveUnrelated(t *testing.T) {
	l := NewLexical()
	cases := []struct{ text, paraphrase, unrelated string }{
		{"A man is playing a guitar", "A person is playing a guitar", "A woman is slicing an onion"},
		{"kids are playing in the yard", "children play in a garden", "the stock market fell sharply today"},
		{"Always look at API specifications before calling an API",
			"Before calling any API, read its specification first",
			"Round monetary amounts to two decimal places"},
		{"Use pagination to collect all results from list APIs",
			"Collect every result of a list API by paginating through all pages",
			"Verify the final directory structure after moving files"},
		{"Check the card expiry date before withdrawing funds",
			"Verify that the payment card expiry is checked before a withdrawal",
			"Extract the song title before ' by ' when comparing titles"},
	}
	for _, c := range cases {
		p, u := l.Score(c.text, c.paraphrase), l.Score(c.text, c.unrelated)
		if p <= u+0.2 {
			t.Errorf("%q: paraphrase %.3f not well above unrelated %.3f", c.text, p, u)
		}
		if u >= MergeFloor {
			t.Errorf("%q vs unrelated %q = %.3f, want < %.1f", c.text, c.unrelated, u, MergeFloor)
		}
	}
}

func TestLexicalCloseParaphrasesMerge(t *testing.T) {
	l := NewLexical()
	for _, c := range [][2]string{
		{"A man is playing a guitar", "A person is playing a guitar"},
		{"Always look at API specifications before calling an API", "Always look at the API specification before you call an API"},
		{"Kids are playing in the yard", "Children are playing in the yard"},
	} {
		if s := l.Score(c[0], c[1]); s < MergeFloor {
			t.Errorf("Score(%q, %q) = %.3f, want >= %.1f", c[0], c[1], s, MergeFloor)
		}
	}
}

func TestLexicalNegationAndNumbersStayBelowMerge(t *testing.T) {
	l := NewLexical()
	cases := [][2]string{
		{"Always retry failed API calls", "Never retry failed API calls"},
		{"Do use pagination when listing items", "Do not use pagination when listing items"},
		{"You should validate the input first", "You should not validate the input first"},
		{"You must close the file handle", "You must not close the file handle"},
		{"Don't hardcode the month and year", "Hardcode the month and year"},
		{"Call the API with a page limit", "Call the API without a page limit"},
		{"There is a man playing the guitar", "There is no man playing the guitar"},
		{"Retry 3 times before giving up", "Retry 5 times before giving up"},
		{"Retry three times before giving up", "Retry 5 times before giving up"},
		{"Wait 2.5 seconds between calls", "Wait 1.5 seconds between calls"},
		{"Two dogs are running", "Three dogs are running"},
	}
	for _, c := range cases {
		if s := l.Score(c[0], c[1]); s >= MergeFloor {
			t.Errorf("Score(%q, %q) = %.3f, want < %.1f", c[0], c[1], s, MergeFloor)
		}
	}
	// Same numbers, same polarity, list markers: no cap.
	for _, c := range [][2]string{
		{"Retry three times before giving up", "Retry 3 times before you give up"},
		{"Never hardcode the year", "Never hardcode the year value"},
		{"Follow this sequence: (1) list files, (2) delete them, (3) verify", "Follow this sequence: (1) list the files, (2) delete them, (3) verify, (4) report"},
	} {
		if s := l.Score(c[0], c[1]); s < MergeFloor {
			t.Errorf("Score(%q, %q) = %.3f, want >= %.1f (no conflict)", c[0], c[1], s, MergeFloor)
		}
	}
}

func TestLexicalScoreProperties(t *testing.T) {
	l := NewLexical()
	texts := append(playbookBullets(t)[:60],
		"", "   ", "!!!", "it is not", "A man is playing a guitar", "2019-01-01", "résumé café")
	for i, a := range texts {
		if strings.TrimSpace(a) != "" && a != "!!!" {
			if s := l.Score(a, a); s != 1 {
				t.Errorf("Score(a, a) = %v for %q", s, a)
			}
		}
		for _, b := range texts[i+1:] {
			ab, ba := l.Score(a, b), l.Score(b, a)
			if ab != ba {
				t.Errorf("not symmetric: %v vs %v for %q, %q", ab, ba, a, b)
			}
			if ab < 0 || ab > 1 || math.IsNaN(ab) {
				t.Errorf("Score out of [0,1]: %v for %q, %q", ab, a, b)
			}
			if again := l.Score(a, b); again != ab {
				t.Errorf("not deterministic: %v then %v", ab, again)
			}
		}
	}
}

// The AppWorld playbook holds bullets whose content appears twice under
// different ids: they must count as duplicates (> 0.90).
func TestLexicalPlaybookDuplicates(t *testing.T) {
	l := NewLexical()
	seen := map[string]bool{}
	dups := 0
	for _, b := range playbookBullets(t) {
		if seen[b] {
			dups++
			if s := l.Score(b, b); s <= 0.90 {
				t.Errorf("duplicate scores %.3f: %q", s, b)
			}
			// A copy with other spacing and case is still a duplicate.
			if s := l.Score(b, strings.ToUpper(b)+"  "); s <= 0.90 {
				t.Errorf("re-cased duplicate scores %.3f: %q", s, b)
			}
		}
		seen[b] = true
	}
	if dups < 5 {
		t.Fatalf("found %d duplicated bullets, want several", dups)
	}
}

var bulletLine = regexp.MustCompile(`^\[[^\]]+\] (.+)$`)

// playbookBullets reads the bullets of testdata/appworld_playbook.txt (the
// AppWorld ACE playbook from shared/data, Apache-2.0).
func playbookBullets(t testing.TB) []string {
	t.Helper()
	f, err := os.Open("testdata/appworld_playbook.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if m := bulletLine.FindStringSubmatch(sc.Text()); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// A word matched only by its meaning (WordNet, word vectors) counts a
// little less than the same word: the score is lowered by meaningK × what
// such matches add over the exact matches, never raised, and texts that
// match word for word keep their score.
func TestLexicalMeaningOnlyMatchesCountLess(t *testing.T) {
	with := NewLexical()
	p := with.p
	p.meaningK = 0
	without := newLexical(p)
	if s, w := with.Score("Kids are playing in the yard", "Children are playing in the yard"),
		without.Score("Kids are playing in the yard", "Children are playing in the yard"); s >= w {
		t.Errorf("synonyms score %.4f with the discount, %.4f without: want lower", s, w)
	}
	if s, w := with.Score("Kids are playing in the yard", "Kids are playing in the big yard"),
		without.Score("Kids are playing in the yard", "Kids are playing in the big yard"); s != w {
		t.Errorf("word-for-word matches score %.4f with the discount, %.4f without: want the same", s, w)
	}
	base := playbookBullets(t)
	texts := append(generatedBullets(base, 300, 5), base[:100]...)
	lowered := 0
	for i, a := range texts {
		b := texts[(i*11+3)%len(texts)]
		s, w := with.Score(a, b), without.Score(a, b)
		if s > w+1e-12 {
			t.Fatalf("Score(%q, %q) = %.6f with the discount, %.6f without", a, b, s, w)
		}
		if s < w {
			lowered++
		}
	}
	if lowered == 0 {
		t.Error("the discount lowered no score")
	}
}

// A word spelled the British way is the same word as its American
// spelling; words that only look alike are not.
func TestLexicalBritishSpelling(t *testing.T) {
	l := NewLexical()
	for _, c := range [][2]string{
		{"Organise the playlists by colour", "Organize the playlists by color"},
		{"The centre analysed the programme", "The center analyzed the program"},
		{"We realised the behaviour was a defence", "We realized the behavior was a defense"},
	} {
		if s := l.Score(c[0], c[1]); s < 0.99 {
			t.Errorf("Score(%q, %q) = %.3f, want >= 0.99", c[0], c[1], s)
		}
	}
	for _, c := range [][2]string{{"four", "for"}, {"acre", "acer"}, {"promise", "promize"}} {
		if a, b := l.analyze(c[0]), l.analyze(c[1]); len(a.terms) == 1 && len(b.terms) == 1 && a.terms[0].key == b.terms[0].key {
			t.Errorf("%q and %q read as one word", c[0], c[1])
		}
	}
}
