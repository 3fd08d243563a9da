package similar

import (
	"strings"
	"testing"
)

// A contraction's second half is the word it stands for ("I've" is "I
// have"), not a content word of its own; a quote's apostrophe is no
// contraction.
func TestTokenizeContractions(t *testing.T) {
	cases := map[string]string{
		"I've had this same problem":  "i have had this same problem",
		"You're right, it's fine":     "you are right it fine",
		"We'll see; I'd say I'm sure": "we will see i would say i am sure",
		"Don't use the user's token":  "do not use the user token",
		"I’ve seen it":                "i have seen it",
		"the 'software' flag":         "the software flag",
		"rock 'n' roll":               "rock n roll",
	}
	for in, want := range cases {
		var got []string
		for _, w := range tokenize(in) {
			got = append(got, w.text)
		}
		if s := strings.Join(got, " "); s != want {
			t.Errorf("tokenize(%q) = %q, want %q", in, s, want)
		}
	}
}

// Two texts that differ only by a contraction say the same thing.
func TestLexicalContractionsMatchTheirWords(t *testing.T) {
	l := NewLexical()
	for _, c := range [][2]string{
		{"I've had this same problem.", "I had this same problem."},
		{"You've got it right.", "You got it right."},
		{"It's pretty much up to you.", "It is pretty much up to you."},
	} {
		if s := l.Score(c[0], c[1]); s < 0.9 {
			t.Errorf("Score(%q, %q) = %.3f, want >= 0.9", c[0], c[1], s)
		}
	}
}

// "No 7" and "No. 2" abbreviate "number": the number stays, and no
// negation; a lower-case "no" before a number is still one.
func TestTokenizeNumberSign(t *testing.T) {
	cases := map[string]string{
		"Amendment No 7 proposes changes":  "amendment 7 proposes changes",
		"No. 2 Ford said":                  "2 ford said",
		"see NO. 12 and No.3":              "see 12 and 3",
		"There are no 3 ways":              "there are !no 3 ways",
		"No one came":                      "!no 1 came",
		"Nov 7":                            "nov 7",
		"No7 NO 7 Nope 7 ANo 7 No":         "no7 !no 7 nope 7 ano 7 !no",
		"Now No  12, no. 3":                "now 12 !no 3",
		"Terminals 1,2,and 3 hold 1,000 V": "terminals 1 2 and 3 hold 1000 v",
		"4,5, and 6 of 12,500":             "4 5 and 6 of 12500",
	}
	for in, want := range cases {
		var got []string
		for _, w := range tokenize(in) {
			if w.negation {
				w.text = "!" + w.text
			}
			got = append(got, w.text)
		}
		if s := strings.Join(got, " "); s != want {
			t.Errorf("tokenize(%q) = %q, want %q", in, s, want)
		}
	}
}
