package secrets

import "strings"

// Most notes about software hold a rule's keyword ("key", "api", "token",
// "pass", "://") without holding a secret, and running a rule's regular
// expression over every such text costs far more than reading it. So each
// rule may say, of one occurrence of one of its keywords, whether a match
// of its pattern could hold that occurrence at all: a necessary condition,
// checked by hand on the bytes around the keyword (an assignment operator
// within reach of a key's name, a run of token characters as long as the
// shortest token). A text none of whose occurrences passes is skipped;
// one that passes is searched by the pattern as a whole, as before, so the
// findings are exactly those of the pattern. The checks read ASCII: a text
// with other bytes takes the pattern without them (see Find).

// nearFunc reports whether the keyword kw found at text[at:] could be part
// of a match of the rule's pattern.
type nearFunc func(text string, at int, kw string) bool

// wordRun is how many bytes from i are in the set.
func wordRun(text string, i int, in func(c byte) bool) int {
	n := 0
	for i+n < len(text) && in(text[i+n]) {
		n++
	}
	return n
}

func isWord(c byte) bool { return isAlnum(c) || c == '_' }

func isNameChar(c byte) bool { return isWord(c) || c == '.' || c == '-' }

// isSpace is RE2's \s.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// assignedWithin: a key's name goes on for at most span more name
// characters ([\w.-]) after the keyword, then at most three spaces or
// quotes, then an assignment operator (= > : | ?): the shape of
// assignmentOperator; then, within the operator and the up to five quotes,
// spaces or '=' after it (at most nine bytes), a value of at least
// minValue characters of the value set ([\w.=+/-]). Inside the run of name
// characters no operator can start, so only its end is looked at.
func assignedWithin(span, minValue int) nearFunc {
	return func(text string, at int, kw string) bool {
		p := at + len(kw)
		run := wordRun(text, p, isNameChar)
		if run > span {
			return false
		}
		p += run
		for q := 0; q < 3 && p < len(text) && (isSpace(text[p]) || text[p] == '\'' || text[p] == '"'); q++ {
			p++
		}
		if p >= len(text) || strings.IndexByte("=>:|?", text[p]) < 0 {
			return false
		}
		for k := 1; k <= 9 && p+k < len(text); k++ {
			if wordRun(text, p+k, isValueChar) >= minValue {
				return true
			}
		}
		return false
	}
}

func isValueChar(c byte) bool { return isWord(c) || strings.IndexByte(".=+/-", c) >= 0 }

// passwordAssigned is the password rule's shape: the word goes on for at
// most 26 more word characters (passphrase and \w{0,20}), then an optional
// quote, any spaces, and ':' or '='.
func passwordAssigned(text string, at int, kw string) bool {
	p := at + len(kw)
	run := wordRun(text, p, isWord)
	if run > 26 {
		return false
	}
	p += run
	if p < len(text) && (text[p] == '"' || text[p] == '\'') {
		p++
	}
	p += wordRun(text, p, isSpace)
	if p >= len(text) || text[p] != ':' && text[p] != '=' {
		return false
	}
	// The operator (: or =, or := or =>), spaces, then a value of four or
	// more characters other than spaces.
	value := func(p int) bool {
		p += wordRun(text, p, isSpace)
		return wordRun(text, p, func(c byte) bool { return !isSpace(c) }) >= 4
	}
	p++
	return value(p) || p < len(text) && (text[p] == '=' || text[p] == '>') && value(p+1)
}

// bearerToken: spaces, then at least 20 token characters.
func bearerToken(text string, at int, kw string) bool {
	p := at + len(kw)
	sp := wordRun(text, p, isSpace)
	if sp == 0 {
		return false
	}
	return wordRun(text, p+sp, func(c byte) bool { return isWord(c) || strings.IndexByte("-.=~+/", c) >= 0 }) >= 20
}

// urlCredentials: after "://", a user, ':', a password of three or more
// characters and '@', none of them '/', ':', '@' or a space.
func urlCredentials(text string, at int, kw string) bool {
	in := func(c byte) bool { return c != '/' && c != ':' && c != '@' && !isSpace(c) }
	p := at + len(kw)
	user := wordRun(text, p, in)
	if user == 0 || p+user >= len(text) || text[p+user] != ':' {
		return false
	}
	p += user + 1
	pass := wordRun(text, p, in)
	return pass >= 3 && p+pass < len(text) && text[p+pass] == '@'
}

// tokenAtLeast: a token starts at the keyword and runs for at least n
// characters of the set every token rule draws from.
func tokenAtLeast(n int) nearFunc {
	return func(text string, at int, _ string) bool {
		return wordRun(text, at, func(c byte) bool { return isWord(c) || strings.IndexByte("-.=/+", c) >= 0 }) >= n
	}
}

// isASCII reports whether text has only ASCII bytes.
func isASCII(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiLower is text with A–Z in lower case, byte for byte.
func asciiLower(text string) string {
	for i := 0; i < len(text); i++ {
		if c := text[i]; 'A' <= c && c <= 'Z' {
			b := []byte(text)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return text
}

// mayMatch reports whether rule r could match the ASCII text whose lower
// case is lower: one of its keywords occurs where its near check passes.
func (r *rule) mayMatch(text, lower string) bool {
	for _, kw := range r.keywords {
		for from := 0; ; {
			i := strings.Index(lower[from:], kw)
			if i < 0 {
				break
			}
			at := from + i
			if r.near == nil || r.near(text, at, kw) {
				return true
			}
			from = at + 1
		}
	}
	return false
}
