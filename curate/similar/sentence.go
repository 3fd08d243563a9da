package similar

import (
	"math"
	"strings"
)

// The sentence-level check: after the words are aligned one by one, two
// texts whose meaning as a whole differs, or whose shared words come in
// another order, score lower. It only ever lowers the word-level score, so
// the candidate index's upper bound of that score still holds.

// sifWeight is how much a word counts in its text's sentence vector
// (smooth inverse frequency): a / (a + p), p the word's estimated share of
// running text from its frequency rank (Zipf's law, p = 1 / (rank × H)).
func (l *Lexical) sifWeight(rank int) float64 {
	const harmonic = 13.3 // ≈ ln(341,479 words of the table's corpus) + γ
	p := 1 / (float64(rank) * harmonic)
	return l.p.sifA / (l.p.sifA + p)
}

// addSentence adds a word's vector, weighted by its rarity, to the text's
// sentence vector.
func (l *Lexical) addSentence(d *doc, wi *wordInfo) {
	v := wi.sentVec
	if v < 0 {
		return
	}
	if d.sent == nil {
		d.sent = make([]float32, l.wv.dims)
	}
	w := wi.sentWeight
	for i, x := range []byte(l.wv.vector(v)) {
		d.sent[i] += float32(w * float64(int8(x)))
	}
}

// sentenceCosine is the cosine of the two texts' sentence vectors, and
// false when either text has no word with a vector.
func sentenceCosine(a, b *doc) (float64, bool) {
	if a.sent == nil || b.sent == nil {
		return 0, false
	}
	var ab, aa, bb float64
	for i, x := range a.sent {
		y := b.sent[i]
		ab += float64(x * y)
		aa += float64(x * x)
		bb += float64(y * y)
	}
	if aa == 0 || bb == 0 {
		return 0, false
	}
	return ab / math.Sqrt(aa*bb), true
}

// orderAgreement is the share of the content words two texts have in
// common that come in the same order in both: the longest common
// subsequence of those words over their number; 1 when they share fewer
// than two. The parts of identifiers (show_api_doc) are names, not
// sentence order, and are left out.
func orderAgreement(a, b *doc) float64 {
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

// ordered reports whether a term counts in the order of a text's words.
func ordered(t term) bool { return !t.stop && !strings.HasPrefix(t.text, identPart) }

// sentenceCheck lowers a word-level score s: by sentK × how far the
// sentence vectors' cosine falls short of sentFloor, then by the share orderK of the shared words' order
// that differs. The result is never above s.
func (l *Lexical) sentenceCheck(a, b *doc, s float64) float64 {
	if l.p.noSentence {
		return s
	}
	if c, ok := sentenceCosine(a, b); ok && c < l.p.sentFloor {
		s = math.Max(0, s-l.p.sentK*(l.p.sentFloor-c))
	}
	return s * (1 - l.p.orderK*(1-orderAgreement(a, b)))
}
