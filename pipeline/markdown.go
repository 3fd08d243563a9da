package pipeline

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Section is a heading and the text under it, as byte ranges of the
// document: [Start, BodyStart) is the heading line(s), [BodyStart, End) the
// body including subsections, [BodyStart, OwnEnd) the body before the first
// subsection.
type Section struct {
	Level     int
	Title     string
	Start     int
	BodyStart int
	OwnEnd    int
	End       int
	Children  []*Section
}

// Outline is a markdown document read through goldmark's AST: its sections
// (headings inside code blocks are not headings) and its task markers.
type Outline struct {
	Source []byte
	// Preamble is the text before the first heading.
	Preamble []byte
	// Sections are the top of the section tree.
	Sections []*Section
	// All lists every section in document order.
	All []*Section
	// Done and Open count task list items marked [X]/[✓] and [ ].
	Done, Open int
	// OpenTasks names each open task: its id (spec-kit's T001) or else the
	// beginning of its text.
	OpenTasks []string
	// TaskList is set when the document was validated as a task list
	// (ArtifactRule.TaskLists).
	TaskList bool
}

var md = goldmark.New()

// ParseOutline reads src with goldmark and builds its section tree.
func ParseOutline(src []byte) *Outline {
	doc := md.Parser().Parse(text.NewReader(src))
	o := &Outline{Source: src}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Lines().Len() == 0 {
				return ast.WalkSkipChildren, nil
			}
			first, last := n.Lines().At(0), n.Lines().At(n.Lines().Len()-1)
			s := &Section{Level: n.Level, Title: strings.TrimSpace(inlineText(n, src)), Start: lineStart(src, first.Start)}
			s.BodyStart = lineEnd(src, last.Stop)
			if !isATX(src[s.Start:]) { // setext: skip the underline
				s.BodyStart = lineEnd(src, s.BodyStart)
			}
			o.All = append(o.All, s)
			return ast.WalkSkipChildren, nil
		case *ast.ListItem:
			switch taskMarker(n, src) {
			case 'x':
				o.Done++
			case ' ':
				o.Open++
				o.OpenTasks = append(o.OpenTasks, taskName(n, src))
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	o.build()
	return o
}

// build sets the end of every section and nests them by level.
func (o *Outline) build() {
	n := len(o.Source)
	if len(o.All) == 0 {
		o.Preamble = o.Source
		return
	}
	o.Preamble = o.Source[:o.All[0].Start]
	var stack []*Section
	for i, s := range o.All {
		s.End, s.OwnEnd = n, n
		if i+1 < len(o.All) {
			s.OwnEnd = o.All[i+1].Start
		}
		for j := i + 1; j < len(o.All); j++ {
			if o.All[j].Level <= s.Level {
				s.End = o.All[j].Start
				break
			}
		}
		for len(stack) > 0 && stack[len(stack)-1].Level >= s.Level {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			o.Sections = append(o.Sections, s)
		} else {
			p := stack[len(stack)-1]
			p.Children = append(p.Children, s)
		}
		stack = append(stack, s)
	}
}

// Text returns the section with its subsections.
func (o *Outline) Text(s *Section) string { return string(o.Source[s.Start:s.End]) }

// Own returns the section's heading and body up to its first subsection.
func (o *Outline) Own(s *Section) string { return string(o.Source[s.Start:s.OwnEnd]) }

// Body returns the section's body without its heading.
func (o *Outline) Body(s *Section) string { return string(o.Source[s.BodyStart:s.End]) }

// Find returns the first section whose heading matches one of names.
func (o *Outline) Find(names ...string) *Section {
	for _, s := range o.All {
		if matchesAny(s.Title, names) {
			return s
		}
	}
	return nil
}

// inlineText is the plain text of a heading's inline content.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(src))
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			case *ast.RawHTML:
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// taskMarker returns 'x' for an item starting with [X], [x], [✓] or [✔],
// ' ' for [ ], and 0 otherwise.
func taskMarker(li *ast.ListItem, src []byte) byte {
	first := li.FirstChild()
	if first == nil || first.Lines().Len() == 0 {
		return 0
	}
	seg := first.Lines().At(0)
	line := bytes.TrimLeft(seg.Value(src), " \t")
	for _, m := range []string{"[X]", "[x]", "[✓]", "[✔]"} {
		if bytes.HasPrefix(line, []byte(m)) {
			return 'x'
		}
	}
	if bytes.HasPrefix(line, []byte("[ ]")) {
		return ' '
	}
	return 0
}

// taskID matches a task id as spec-kit writes them: T001, T004a.
var taskID = regexp.MustCompile(`^[A-Z]{1,4}-?\d+[a-z]?$`)

// taskName is how a warning names an open task: its id when its text
// starts with one, else its first words (at most 40 bytes).
func taskName(li *ast.ListItem, src []byte) string {
	seg := li.FirstChild().Lines().At(0)
	line := bytes.TrimLeft(seg.Value(src), " \t")
	text := strings.TrimSpace(string(line[len("[ ]"):]))
	if f := strings.Fields(text); len(f) > 0 && taskID.MatchString(f[0]) {
		return f[0]
	}
	if len(text) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	return text
}

func lineStart(src []byte, i int) int {
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}

func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(src)
}

func isATX(line []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(line, " "), []byte("#"))
}

// normalize lowers a heading and keeps letters and digits, one space apart:
// "User Scenarios & Testing *(mandatory)*" → "user scenarios testing mandatory".
func normalize(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// matches reports whether heading contains name as whole words, ignoring
// case and punctuation.
func matches(heading, name string) bool {
	n := normalize(name)
	if n == "" {
		return false
	}
	return strings.Contains(" "+normalize(heading)+" ", " "+n+" ")
}

func matchesAny(heading string, names []string) bool {
	for _, n := range names {
		if matches(heading, n) {
			return true
		}
	}
	return false
}

// containsAny reports whether text holds one of names as whole words,
// ignoring case and punctuation.
func containsAny(text string, names []string) bool {
	t := " " + normalize(text) + " "
	for _, n := range names {
		if n := normalize(n); n != "" && strings.Contains(t, " "+n+" ") {
			return true
		}
	}
	return false
}
