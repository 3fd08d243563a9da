package secrets

import "math"

// entropy is the Shannon entropy of s in bits per byte, as gitleaks measures
// a candidate: random keys score about 4 and more, words and placeholders
// less than 3.5.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	e := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= p * math.Log2(p)
		}
	}
	return e
}
