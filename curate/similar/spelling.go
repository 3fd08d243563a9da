package similar

import "strings"

// spellingRules turn a British spelling into the American one, by the
// ending of a lemma ("realise" → "realize") or by a part of it ("colour"
// → "color", "favourite" → "favorite").
var spellingRules = []struct {
	from, to string
	end      bool // only at the end of the lemma
}{
	{"isation", "ization", false}, {"ise", "ize", true}, {"ised", "ized", true}, {"iser", "izer", true},
	{"yse", "yze", true}, {"our", "or", false}, {"tre", "ter", true},
	{"ogue", "og", true}, {"mme", "m", true}, {"ence", "ense", true},
}

// americanSpelling returns the American spelling of a British lemma and
// its W line when WordNet knows both as words of one sense
// ("organisation" and "organization"), else "".
func (wn *wordNet) americanSpelling(lemma string, w wnWord) (string, wnWord) {
	for _, r := range spellingRules {
		var v string
		switch {
		case r.end && strings.HasSuffix(lemma, r.from):
			v = lemma[:len(lemma)-len(r.from)] + r.to
		case !r.end && strings.Contains(lemma, r.from):
			i := strings.LastIndex(lemma, r.from)
			v = lemma[:i] + r.to + lemma[i+len(r.from):]
		default:
			continue
		}
		if vw := wn.word(v); vw != "" && shareSense(w, vw) {
			return v, vw
		}
	}
	return "", ""
}

// shareSense reports whether two words have a sense (synset) in common.
func shareSense(a, b wnWord) bool {
	sa, sb := a.senses(), b.senses()
	for pos := range sa {
		for _, x := range sa[pos] {
			for _, y := range sb[pos] {
				if x == y {
					return true
				}
			}
		}
	}
	return false
}
