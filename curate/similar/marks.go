package similar

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A text's words (Lexical.Words) say everything its score needs but where
// its negations reach: how many negation words it holds, which of its
// words a negation reaches, and which sit in a stretch of words that holds
// one (conflict). A text with a negation gets these as one more word, its
// marks, after its words: "!negation 2 3,5 3-5" (two negations; the
// fourth and sixth words negated; the fourth to the sixth in a negated
// stretch; "-" for none). No word of a text starts with "!", so the marks
// are never taken for a word. With its marks, an item indexed by its words
// is scored from them (Index.itemWords) and its text is never read.
const marksPrefix = "!negation "

// textMarks are a text's negation marks: what its analysis holds besides
// its words.
type textMarks struct {
	negations       int
	negated, hedged []int32 // positions in the text's words
}

// unknownMarks stands for marks that do not read as marks: the item's
// text is read and analysed when it is scored, as without marks.
var unknownMarks = &textMarks{negations: -1}

// badMarks are marks that never read.
const badMarks = marksPrefix + "?"

// marksOf is the marks of an analysed text ("" when it has no negation).
func marksOf(d *doc) string {
	if d.negations == 0 {
		return ""
	}
	m := &textMarks{negations: d.negations}
	for i, t := range d.terms {
		if t.negated {
			m.negated = append(m.negated, int32(i))
		}
		if t.hedged {
			m.hedged = append(m.hedged, int32(i))
		}
	}
	return m.String()
}

// String is the marks as a text's words hold them: each list of positions
// ascending, a run of three or more as "first-last".
func (m *textMarks) String() string {
	list := func(ps []int32) string {
		if len(ps) == 0 {
			return "-"
		}
		var b strings.Builder
		for i := 0; i < len(ps); {
			j := i
			for j+1 < len(ps) && ps[j+1] == ps[j]+1 {
				j++
			}
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(ps[i])))
			switch {
			case j-i >= 2:
				b.WriteByte('-')
				b.WriteString(strconv.Itoa(int(ps[j])))
			case j > i:
				j = i // two in a row: written one by one
			}
			i = j + 1
		}
		return b.String()
	}
	return marksPrefix + strconv.Itoa(m.negations) + " " + list(m.negated) + " " + list(m.hedged)
}

// isMarks reports whether a word of a text's words is its marks.
func isMarks(w string) bool { return strings.HasPrefix(w, marksPrefix) }

// parseMarks reads the marks of a text of n words: nil for "" (no
// negation), unknownMarks when they do not read as marks.
func parseMarks(s string, n int) *textMarks {
	if s == "" {
		return nil
	}
	f := strings.Fields(strings.TrimPrefix(s, marksPrefix))
	if len(f) != 3 {
		return unknownMarks
	}
	neg, err := strconv.Atoi(f[0])
	if err != nil || neg <= 0 {
		return unknownMarks
	}
	m := &textMarks{negations: neg}
	for i, out := range []*[]int32{&m.negated, &m.hedged} {
		if f[i+1] == "-" {
			continue
		}
		for _, x := range strings.Split(f[i+1], ",") {
			first, last, run := strings.Cut(x, "-")
			p, err := strconv.Atoi(first)
			q, err2 := p, error(nil)
			if run {
				q, err2 = strconv.Atoi(last)
			}
			if err != nil || err2 != nil || p < 0 || q < p || q >= n || len(*out) > 0 && int32(p) <= (*out)[len(*out)-1] {
				return unknownMarks
			}
			for ; p <= q; p++ {
				*out = append(*out, int32(p))
			}
		}
	}
	return m
}

// apply gives the analysed words d of a text (in order, without their
// negations) the text's marks (m nil: no negation), and the numbers its
// words name, as analyze gives them from the text.
func (m *textMarks) apply(d *doc) {
	for _, t := range d.terms {
		if t.number {
			d.numbers = append(d.numbers, t.text)
		}
	}
	sort.Strings(d.numbers)
	if m == nil {
		return
	}
	d.negations = m.negations
	for i := range d.terms {
		d.terms[i].negated = slices.Contains(m.negated, int32(i))
		d.terms[i].hedged = slices.Contains(m.hedged, int32(i))
	}
}
