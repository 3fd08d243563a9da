package similar

import "strings"

// SharedWords are the words of b that a holds too, as the lexical engine
// reads them (the same stem or lemma), in b's order, stop words and
// numbers left out: what a reader is shown of why two texts match.
func (l *Lexical) SharedWords(a, b string) []string {
	keys := map[string]bool{}
	for _, t := range l.analyze(a).terms {
		keys[t.key] = true
	}
	var out []string
	for _, t := range l.analyze(b).terms {
		if !t.stop && !t.number && keys[t.key] {
			out = append(out, strings.Trim(t.text, "_"))
		}
	}
	return out
}
