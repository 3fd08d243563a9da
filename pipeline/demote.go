package pipeline

import "strings"

// excerptHeadingLevel is the level the top headings of an artifact's
// excerpts get in a brief: below the brief's "## Curated Context" and its
// "### From `file`", so the brief's own outline stays intact.
const excerptHeadingLevel = 4

// demoteGroup shifts the ATX headings of a group's excerpts so that the
// highest of them sits at excerptHeadingLevel; relative levels are kept and
// headings inside fenced code blocks are left alone. Levels stop at 6.
func demoteGroup(g Group) Group {
	top := 7
	for _, e := range g.Excerpts {
		_, levels := headings(strings.Split(e.Text, "\n"))
		for _, lv := range levels {
			top = min(top, lv)
		}
	}
	if top >= excerptHeadingLevel {
		return g
	}
	shift := excerptHeadingLevel - top
	out := Group{Source: g.Source, Excerpts: make([]Excerpt, len(g.Excerpts))}
	for i, e := range g.Excerpts {
		e.Text = shiftHeadings(e.Text, shift)
		out.Excerpts[i] = e
	}
	return out
}

// headings returns the line numbers and levels of the ATX heading lines
// outside fenced and indented code.
func headings(lines []string) (at, levels []int) {
	fence := ""
	for i, line := range lines {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 {
			continue // indented code
		}
		if f := fenceOf(t); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(t, fence) && strings.TrimSpace(strings.TrimLeft(t, fence[:1])) == "":
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		if lv := atxLevel(t); lv > 0 {
			at, levels = append(at, i), append(levels, lv)
		}
	}
	return at, levels
}

// shiftHeadings adds shift levels to every heading of text.
func shiftHeadings(text string, shift int) string {
	lines := strings.Split(text, "\n")
	at, levels := headings(lines)
	for k, i := range at {
		t := strings.TrimLeft(lines[i], " ")
		lines[i] = strings.Repeat("#", min(levels[k]+shift, 6)) + t[levels[k]:]
	}
	return strings.Join(lines, "\n")
}

// fenceOf returns the fence marker (``` or ~~~, at least three) a line opens
// or closes, or "".
func fenceOf(t string) string {
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// atxLevel is the level of an ATX heading line ("## Title"), or 0.
func atxLevel(t string) int {
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n < 1 || n > 6 {
		return 0
	}
	if len(t) > n && t[n] != ' ' && t[n] != '\t' {
		return 0
	}
	return n
}
