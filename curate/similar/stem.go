package similar

// stem returns the Porter (1980) stem of a lower-case ASCII word, so that
// "paginate", "paginated" and "pagination" share one key. Words with other
// characters, or shorter than three letters, are returned unchanged.
func stem(word string) string {
	if len(word) < 3 {
		return word
	}
	for i := 0; i < len(word); i++ {
		if word[i] < 'a' || word[i] > 'z' {
			return word
		}
	}
	b := []byte(word)
	b = step1ab(b)
	b = step1c(b)
	b = step2(b)
	b = step3(b)
	b = step4(b)
	b = step5(b)
	return string(b)
}

// isCons reports whether b[i] is a consonant in Porter's sense.
func isCons(b []byte, i int) bool {
	switch b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !isCons(b, i-1)
	}
	return true
}

// measure is Porter's m: the number of VC sequences in b.
func measure(b []byte) int {
	n, i := 0, 0
	for i < len(b) && isCons(b, i) {
		i++
	}
	for i < len(b) {
		for i < len(b) && !isCons(b, i) {
			i++
		}
		if i == len(b) {
			break
		}
		for i < len(b) && isCons(b, i) {
			i++
		}
		n++
	}
	return n
}

func hasVowel(b []byte) bool {
	for i := range b {
		if !isCons(b, i) {
			return true
		}
	}
	return false
}

func doubleCons(b []byte) bool {
	n := len(b)
	return n >= 2 && b[n-1] == b[n-2] && isCons(b, n-1)
}

// cvc: consonant-vowel-consonant ending, the last not w, x or y.
func cvc(b []byte) bool {
	n := len(b)
	if n < 3 || !isCons(b, n-1) || isCons(b, n-2) || !isCons(b, n-3) {
		return false
	}
	c := b[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

// replace swaps suffix s for r when the stem before s has measure > m.
func replace(b []byte, s, r string, m int) ([]byte, bool) {
	if !hasSuffix(b, s) {
		return b, false
	}
	base := b[:len(b)-len(s)]
	if measure(base) > m {
		return append(base, r...), true
	}
	return b, true
}

func step1ab(b []byte) []byte {
	switch {
	case hasSuffix(b, "sses"), hasSuffix(b, "ies"):
		b = b[:len(b)-2]
	case hasSuffix(b, "ss"):
	case hasSuffix(b, "s"):
		b = b[:len(b)-1]
	}
	if hasSuffix(b, "eed") {
		if measure(b[:len(b)-3]) > 0 {
			b = b[:len(b)-1]
		}
		return b
	}
	var base []byte
	switch {
	case hasSuffix(b, "ed") && hasVowel(b[:len(b)-2]):
		base = b[:len(b)-2]
	case hasSuffix(b, "ing") && hasVowel(b[:len(b)-3]):
		base = b[:len(b)-3]
	default:
		return b
	}
	switch {
	case hasSuffix(base, "at"), hasSuffix(base, "bl"), hasSuffix(base, "iz"):
		return append(base, 'e')
	case doubleCons(base):
		c := base[len(base)-1]
		if c != 'l' && c != 's' && c != 'z' {
			return base[:len(base)-1]
		}
	case measure(base) == 1 && cvc(base):
		return append(base, 'e')
	}
	return base
}

func step1c(b []byte) []byte {
	if hasSuffix(b, "y") && hasVowel(b[:len(b)-1]) {
		b[len(b)-1] = 'i'
	}
	return b
}

var step2Rules = [][2]string{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"},
	{"izer", "ize"}, {"bli", "ble"}, {"alli", "al"}, {"entli", "ent"},
	{"eli", "e"}, {"ousli", "ous"}, {"ization", "ize"}, {"ation", "ate"},
	{"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"},
	{"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

var step3Rules = [][2]string{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
	{"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func applyRules(b []byte, rules [][2]string) []byte {
	for _, r := range rules {
		if out, matched := replace(b, r[0], r[1], 0); matched {
			return out
		}
	}
	return b
}

func step2(b []byte) []byte { return applyRules(b, step2Rules) }
func step3(b []byte) []byte { return applyRules(b, step3Rules) }

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
	"ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

func step4(b []byte) []byte {
	// Longest matching suffix first, as in Porter's table ordering by ending.
	best := ""
	for _, s := range step4Suffixes {
		if hasSuffix(b, s) && len(s) > len(best) {
			best = s
		}
	}
	if best == "" {
		return b
	}
	base := b[:len(b)-len(best)]
	if measure(base) <= 1 {
		return b
	}
	if best == "ion" && (len(base) == 0 || (base[len(base)-1] != 's' && base[len(base)-1] != 't')) {
		return b
	}
	return base
}

func step5(b []byte) []byte {
	if hasSuffix(b, "e") {
		base := b[:len(b)-1]
		if m := measure(base); m > 1 || (m == 1 && !cvc(base)) {
			b = base
		}
	}
	if measure(b) > 1 && doubleCons(b) && b[len(b)-1] == 'l' {
		b = b[:len(b)-1]
	}
	return b
}
