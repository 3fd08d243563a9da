package bulletid

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// DefaultPrefixes are the id prefixes of the built-in categories.
var DefaultPrefixes = map[string]string{
	"strategy": "STRAT", "pattern": "PATTERN", "anti-pattern": "ANTI", "api": "API",
	"troubleshooting": "TRBL", "verification": "VERIF", "other": "MISC",
}

var idRE = regexp.MustCompile(`^(.+)-(\d+)(?:-v(\d+))?$`)

// Parse splits an id into prefix, number and version (1 when the id
// has no -vN). ok is false for ids not of the form PREFIX-NNN[-vN].
func Parse(id string) (prefix string, n, version int, ok bool) {
	m, ok := split(id)
	if !ok {
		return "", 0, 0, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, 0, false
	}
	version = 1
	if m[3] != "" {
		version, _ = strconv.Atoi(m[3])
	}
	return m[1], n, version, true
}

// split matches id against idRE (whole match, then the groups;
// ok false when it does not match), without the regular expression and
// without an allocation for the usual forms: it is called for every id a
// playbook ever used.
func split(id string) (m [4]string, ok bool) {
	if strings.ContainsRune(id, '\n') {
		r := idRE.FindStringSubmatch(id)
		if r == nil {
			return m, false
		}
		copy(m[:], r)
		return m, true
	}
	// digitsAtEnd splits s into what precedes "-<digits>" at its end and
	// the digits.
	digitsAtEnd := func(s string) (string, string, bool) {
		j := len(s)
		for j > 0 && s[j-1] >= '0' && s[j-1] <= '9' {
			j--
		}
		if j == len(s) || j < 2 || s[j-1] != '-' {
			return "", "", false
		}
		return s[:j-1], s[j:], true
	}
	if p, d, ok := digitsAtEnd(id); ok {
		return [4]string{id, p, d, ""}, true
	}
	j := len(id)
	for j > 0 && id[j-1] >= '0' && id[j-1] <= '9' {
		j--
	}
	if j == len(id) || j < 2 || id[j-2:j] != "-v" {
		return m, false
	}
	if p, d, ok := digitsAtEnd(id[:j-2]); ok {
		return [4]string{id, p, d, id[j:]}, true
	}
	return m, false
}

// BaseID strips a -vN suffix.
func Base(id string) string {
	if p, n, _, ok := Parse(id); ok {
		return fmt.Sprintf("%s-%03d", p, n)
	}
	return id
}

// pad3 is n with at least three digits, as %03d writes it.
func pad3(n int) string {
	s := strconv.Itoa(n)
	if n >= 0 && len(s) < 3 {
		s = strings.Repeat("0", 3-len(s)) + s
	}
	return s
}
