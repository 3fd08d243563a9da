package merge

import (
	"bytes"
	"strings"
)

// Markers that open, split and close a body conflict, as git writes them.
const (
	markOurs   = "<<<<<<< ours"
	markSplit  = "======="
	markTheirs = ">>>>>>> theirs"
)

// textMerge is a line three-way merge (diff3): changes on one side are taken,
// identical changes once, and overlapping different changes are written
// between conflict markers. With joinAdded, lines both sides added at the
// same place (no base line changed there) are kept both, ours first: notes
// appended to a record on two machines are two notes. It returns the merged
// text and, for each conflict, the 0-based line of its opening marker with
// the two sides.
func textMerge(base, ours, theirs []byte, joinAdded bool) ([]byte, []Conflict) {
	b, o, t := splitLines(base), splitLines(ours), splitLines(theirs)
	mo, mt := match(b, o), match(b, t)
	eol := "\n"
	if bytes.Contains(ours, []byte("\r\n")) {
		eol = "\r\n"
	}
	out := make([]string, 0, len(o)+len(t)/16)
	var conflicts []Conflict
	i, j, k := 0, 0, 0
	for i < len(b) || j < len(o) || k < len(t) {
		s := i
		for s < len(b) && (mo[s] < 0 || mt[s] < 0) {
			s++
		}
		if s == i && s < len(b) && mo[s] == j && mt[s] == k {
			out = append(out, b[i])
			i, j, k = i+1, j+1, k+1
			continue
		}
		oe, te := len(o), len(t)
		if s < len(b) {
			oe, te = mo[s], mt[s]
		}
		cb, co, ct := b[i:s], o[j:oe], t[k:te]
		switch {
		case equal(co, cb):
			out = append(out, ct...)
		case equal(ct, cb), equal(co, ct):
			out = append(out, co...)
		case joinAdded && len(cb) == 0:
			out = append(out, closed(co, eol)...)
			out = append(out, ct...)
		default:
			conflicts = append(conflicts, Conflict{Kind: LinesConflict, Ours: strings.Join(co, ""), Theirs: strings.Join(ct, ""), Line: len(out)})
			out = append(out, markOurs+eol)
			out = append(out, closed(co, eol)...)
			out = append(out, markSplit+eol)
			out = append(out, closed(ct, eol)...)
			out = append(out, markTheirs+eol)
		}
		i, j, k = s, oe, te
	}
	return []byte(strings.Join(out, "")), conflicts
}

// closed returns lines whose last one ends in a line end, so that a marker
// after them starts its own line.
func closed(lines []string, eol string) []string {
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines = append(append([]string(nil), lines[:n-1]...), lines[n-1]+eol)
	}
	return lines
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// splitLines splits b after each "\n", keeping the line ends.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// mergeText merges a file that is neither a record nor JSON, as text.
func mergeText(path string, base, ours, theirs []byte) (Result, error) {
	data, cs := textMerge(base, ours, theirs, false)
	for i := range cs {
		cs[i].Path, cs[i].Line = path, cs[i].Line+1
	}
	return Result{Data: data, Conflicts: cs}, nil
}
