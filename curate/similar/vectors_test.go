package similar

import (
	"testing"
)

// A lesson that says an AppWorld bullet in other words is merged into it,
// not added as a new bullet: the word vectors match "check" with "look"
// and "documentation" with "specifications", which WordNet does not.
func TestLexicalPlaybookParaphraseMerges(t *testing.T) {
	l := NewLexical()
	bullet := "Always look at API specifications (using apis.api_docs.show_api_doc) before calling an API."
	for _, lesson := range []string{
		"Check the API documentation with show_api_doc before calling an unfamiliar API",
	} {
		if s := l.Score(lesson, bullet); s < MergeFloor {
			t.Errorf("Score(%q, bullet) = %.3f, want >= %.1f", lesson, s, MergeFloor)
		}
	}
}

// Words near each other in vector space but opposite in meaning, and rare
// words or identifiers the table has no vector for, do not make two
// lessons the same.
func TestLexicalVectorsKeepOppositesAndIdentifiersApart(t *testing.T) {
	l := NewLexical()
	for _, c := range []struct {
		a, b string
		max  float64
	}{
		{"Sort the results in ascending order", "Sort the results in descending order", 0.85},
		{"Treat the token as valid", "Treat the token as invalid", 0.85},
		{"Always retry failed API calls", "Never retry failed API calls", MergeFloor},
		{"Retry 3 times before giving up", "Retry 5 times before giving up", MergeFloor},
	} {
		if s := l.Score(c.a, c.b); s >= c.max {
			t.Errorf("Score(%q, %q) = %.3f, want < %.2f", c.a, c.b, s, c.max)
		}
	}
	// The parts of identifiers match only themselves: "playlist" and
	// "album" are neighbours as words, not inside show_..._library.
	plain := l.WithoutVectors()
	a, b := "Call show_playlist_library first", "Call show_album_library first"
	if s, want := l.Score(a, b), plain.Score(a, b); s != want {
		t.Errorf("Score(%q, %q) = %.3f, want %.3f as without vectors", a, b, s, want)
	}
}

// The vector table is the generated one: sorted words, neighbours both
// ways, and what the engine reads for a common word.
func TestVectorTable(t *testing.T) {
	wv := loadVectors()
	if len(wv.words) < 40000 || wv.dims != 100 {
		t.Fatalf("table of %d words, %d dims", len(wv.words), wv.dims)
	}
	for i := 1; i < len(wv.words); i++ {
		if wv.words[i-1] >= wv.words[i] {
			t.Fatalf("words not sorted at %q, %q", wv.words[i-1], wv.words[i])
		}
	}
	for _, w := range []string{"documentation", "playlist", "check"} {
		if wv.find(w) < 0 {
			t.Errorf("no vector for %q", w)
		}
	}
	for i := int32(0); i < int32(len(wv.words)); i += 97 {
		for _, j := range wv.neighbours(i) {
			found := false
			for _, k := range wv.neighbours(j) {
				found = found || k == i
			}
			if !found {
				t.Fatalf("%q neighbours %q but not the other way", wv.words[i], wv.words[j])
			}
		}
	}
}
