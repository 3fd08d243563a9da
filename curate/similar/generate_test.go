package similar

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// generatedBullets makes n lesson-like texts from the AppWorld bullets:
// windows of a bullet with words dropped, swapped for other playbook
// words, negated or renumbered, sometimes joined with part of another
// bullet. Variants of one bullet land all over the similarity scale, which
// is what the index must get right.
func generatedBullets(base []string, n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	var vocab []string
	for _, b := range base {
		vocab = append(vocab, strings.Fields(b)...)
	}
	window := func(b string) []string {
		ws := strings.Fields(b)
		size := 8 + r.IntN(30)
		if size >= len(ws) {
			return ws
		}
		start := r.IntN(len(ws) - size + 1)
		return ws[start : start+size]
	}
	out := make([]string, 0, n)
	for len(out) < n {
		ws := window(base[r.IntN(len(base))])
		if r.IntN(4) == 0 {
			ws = append(ws, window(base[r.IntN(len(base))])[:4+r.IntN(4)]...)
		}
		rate := []float64{0, 0.05, 0.15, 0.3, 0.6}[r.IntN(5)]
		var mut []string
		for _, w := range ws {
			switch p := r.Float64(); {
			case p < rate/2:
				// dropped
			case p < rate:
				mut = append(mut, vocab[r.IntN(len(vocab))])
			default:
				mut = append(mut, w)
			}
		}
		switch r.IntN(8) {
		case 0:
			mut = append([]string{"never"}, mut...)
		case 1:
			mut = append(mut, fmt.Sprintf("retry %d times", 1+r.IntN(5)))
		}
		if len(mut) > 0 {
			out = append(out, strings.Join(mut, " "))
		}
	}
	return out
}
