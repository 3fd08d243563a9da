package history

import (
	"regexp"
	"strings"
)

// merge returns the sentences of merged bullet n's body that none of its
// parents had, and warns for each parent sentence its body lost. Parents
// whose old version is not part of the diff are not compared.
func (d *differ) merge(n *record, parents []string) []string {
	have := normalize(n.body)
	known := map[string]bool{}
	for _, p := range parents {
		body, ok := d.bodies[p]
		if !ok {
			continue
		}
		for _, s := range sentences(body) {
			known[normalize(s)] = true
			if !strings.Contains(have, normalize(s)) {
				d.warn(n, WarnLostSentence, "merged body lost a sentence of "+p+": "+quote(s))
			}
		}
	}
	var added []string
	for _, s := range sentences(n.body) {
		if !known[normalize(s)] {
			added = append(added, s)
		}
	}
	return added
}

var sentenceEnd = regexp.MustCompile(`[.!?](\s+|$)|\n\s*\n`)

// sentences splits a body into its sentences (and paragraphs without end
// punctuation), trimmed.
func sentences(body string) []string {
	var out []string
	last := 0
	for _, m := range sentenceEnd.FindAllStringIndex(body, -1) {
		if s := strings.TrimSpace(body[last : m[0]+1]); s != "" && strings.Trim(s, ".!? \n") != "" {
			out = append(out, s)
		}
		last = m[1]
	}
	if s := strings.TrimSpace(body[last:]); s != "" {
		out = append(out, s)
	}
	return out
}

// normalize lowers and collapses blank space and list markers, so that
// rewrapping a sentence does not count as losing it.
func normalize(s string) string {
	f := strings.Fields(strings.ToLower(s))
	for i, w := range f {
		f[i] = strings.TrimRight(w, ".!?")
	}
	return strings.Join(f, " ")
}

func quote(s string) string {
	if len(s) > 120 {
		s = s[:117] + "…"
	}
	return "\"" + s + "\""
}

// secrets warns about each secret-like string in an added record; the
// warning names the rule and the line, never the string.
func (d *differ) secrets(n *record) {
	for _, f := range d.pol.Find(n.text) {
		d.warn(n, WarnSecret, "secret-like string: "+f.String())
	}
}
