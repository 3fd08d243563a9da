package similar

import (
	"math"
	"slices"
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
// sentence order, and are left out. A text's words are distinct, so the
// shared words are the same in both texts, only ordered differently: their
// longest common subsequence is the longest increasing run of their places
// in b taken in a's order (found by patience, without a table or a map).
func orderAgreement(a, b *doc) float64 {
	var buf [64]int32
	pos := buf[:0] // the shared words' places in b, in a's order
	for _, t := range a.terms {
		if !ordered(t) {
			continue
		}
		for j := range b.terms {
			if u := b.terms[j]; u.key == t.key && ordered(u) {
				pos = append(pos, int32(j))
				break
			}
		}
	}
	if len(pos) < 2 {
		return 1
	}
	// tails[k] is the least last place of an increasing run of k+1 places.
	var tbuf [64]int32
	tails := tbuf[:0]
	for _, p := range pos {
		k, _ := slices.BinarySearch(tails, p)
		if k == len(tails) {
			tails = append(tails, p)
		} else {
			tails[k] = p
		}
	}
	return float64(len(tails)) / float64(len(pos))
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
