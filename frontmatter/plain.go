package frontmatter

import (
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// plainYAML reads the layout curator writes — a block mapping of plain
// keys whose values are one-line scalars (plain, or quoted without
// escapes), block sequences of them, nested block mappings, or the empty
// flow collections "[]" and "{}" — into the node the YAML parser makes of
// it (kinds, tags, styles, lines and columns alike), without the parser,
// which costs more than reading the file. It reports false for every other
// text (escapes, comments, anchors, tags, block scalars, flow collections
// with items, tabs, blank lines, a scalar that continues on the next line,
// ...), which the parser reads instead.
func plainYAML(y []byte) (*yaml.Node, bool) {
	if len(y) == 0 || y[len(y)-1] != '\n' || len(y) > maxPlainYAML {
		return nil, false
	}
	r := plainReader{y: string(y)}
	// A document of n lines has at most 2n+1 nodes: the root, and for each
	// line a key and its value, or a "key:" line's key and the collection it
	// opens (the collection's first entry counted on its own line), or a
	// sequence entry. The slab grows to that in chunks, so that a text
	// refused early allocates little.
	r.left = 2*strings.Count(r.y, "\n") + 1
	if !r.next() || r.indent != 0 {
		return nil, false
	}
	root, ok := r.mapping(r.indent)
	if !ok || !r.done {
		return nil, false
	}
	return root, true
}

// maxPlainYAML is the longest frontmatter plainYAML reads; a longer one
// is left to the parser (and its limits).
const maxPlainYAML = 64 << 10

// commonKeys are the keys of curator's records, kept once for every
// frontmatter that gives them. Every other key, and every value, is a copy
// of its own: a record's fields keep only their own text alive, never the
// whole frontmatter.
var commonKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range strings.Fields(`agent archived_at at author brief category confidence content content_confidence
		created_at curated_lessons curator_status duplicate_of from harmful_bullets harmful_count
		helpful_bullets helpful_count id importance_factors ingestion_time is_active last_used_at
		lessons maturity merged_from observation original_id outcome parent_bullet_id priority
		reason run scenario score section source_cases source_reflections started_at status tags
		task trashed type updated_at usage_count validation version window_days proximity
		surprisal entity_priority unambiguity`) {
		m[k] = k
	}
	return m
}()

// plainReader walks the lines of a frontmatter for plainYAML: the current
// line's number (from 1), its indentation and the text after it.
type plainReader struct {
	y      string
	off    int // where the line after the current one starts
	line   int
	indent int
	text   string // the current line after its indentation, without "\n"
	done   bool   // no line is left
	// slab and contents hold the nodes and the collections' entries, so
	// that a frontmatter costs a few allocations, not one per node; left
	// is how many more nodes the document can have.
	slab     []yaml.Node
	contents []*yaml.Node
	left     int
	stack    []*yaml.Node // the entries of the collections being read
}

// slabChunk is how many nodes the slab grows by.
const slabChunk = 64

// content gives a collection the entries pushed on the stack since from,
// in a slice of the contents slab whose capacity is its length: a caller
// that appends to one collection's Content never writes over another's.
func (r *plainReader) content(n *yaml.Node, from int) {
	entries := r.stack[from:]
	if len(entries) > len(r.contents) && len(entries) <= slabChunk {
		r.contents = make([]*yaml.Node, min(slabChunk, max(r.left+len(r.stack), len(entries))))
	}
	if len(entries) <= len(r.contents) {
		n.Content, r.contents = r.contents[:len(entries):len(entries)], r.contents[len(entries):]
		copy(n.Content, entries)
	} else {
		n.Content = append([]*yaml.Node(nil), entries...)
	}
	r.stack = r.stack[:from]
}

// node is a new node, from the reader's slab.
func (r *plainReader) node(kind yaml.Kind, style yaml.Style, tag, value string, line, col int) *yaml.Node {
	if len(r.slab) == 0 {
		r.slab = make([]yaml.Node, min(slabChunk, max(r.left, 1)))
	}
	n := &r.slab[0]
	r.slab, r.left = r.slab[1:], r.left-1
	n.Kind, n.Style, n.Tag, n.Value, n.Line, n.Column = kind, style, tag, value, line, col
	return n
}

// next moves to the next line; false at the end, or for a line plainYAML
// does not read (blank, a tab, a carriage return).
func (r *plainReader) next() bool {
	if r.off >= len(r.y) {
		r.done = true
		return false
	}
	end := strings.IndexByte(r.y[r.off:], '\n') + r.off
	l := r.y[r.off:end]
	r.off = end + 1
	r.line++
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	r.indent, r.text = n, l[n:]
	return len(r.text) > 0 && strings.IndexByte(l, '\t') < 0 && strings.IndexByte(l, '\r') < 0
}

// mapping reads the keys at indentation indent from the current line on.
// It returns at the first line indented less (or at the end), having
// moved to it.
func (r *plainReader) mapping(indent int) (*yaml.Node, bool) {
	m := r.node(yaml.MappingNode, 0, "!!map", "", r.line, indent+1)
	from := len(r.stack)
	for !r.done && r.indent == indent {
		colon := strings.IndexByte(r.text, ':')
		if colon <= 0 || !plainKey(r.text[:colon]) {
			return nil, false
		}
		k := r.text[:colon]
		if common, ok := commonKeys[k]; ok {
			k = common
		} else {
			k = strings.Clone(k)
		}
		key := r.scalar(k, r.line, indent+1)
		rest := r.text[colon+1:]
		line := r.line
		var v *yaml.Node
		switch {
		case len(rest) == 0:
			// a nested mapping or sequence on the lines that follow
			if !r.next() {
				return nil, false
			}
			var ok bool
			switch {
			case r.indent > indent && isEntry(r.text):
				v, ok = r.sequence(r.indent)
			case r.indent == indent && isEntry(r.text):
				v, ok = r.sequence(indent)
			case r.indent > indent:
				v, ok = r.mapping(r.indent)
			}
			if !ok {
				return nil, false
			}
		case rest[0] == ' ':
			n := 1
			for n < len(rest) && rest[n] == ' ' {
				n++
			}
			col := indent + colon + 1 + n + 1
			var ok bool
			if v, ok = r.value(rest[n:], line, col); !ok {
				return nil, false
			}
			if r.next() {
				if r.indent > indent {
					return nil, false // the value goes on: the parser's to read
				}
			} else if !r.done {
				return nil, false
			}
		default:
			return nil, false
		}
		r.stack = append(r.stack, key, v)
	}
	if !r.done && r.indent > indent {
		return nil, false
	}
	r.content(m, from)
	return m, true
}

// sequence reads the "- " entries at indentation indent, each a one-line
// scalar.
func (r *plainReader) sequence(indent int) (*yaml.Node, bool) {
	s := r.node(yaml.SequenceNode, 0, "!!seq", "", r.line, indent+1)
	from := len(r.stack)
	for !r.done && r.indent == indent && isEntry(r.text) {
		v, ok := r.oneLineScalar(r.text[2:], r.line, indent+3)
		if !ok {
			return nil, false
		}
		r.stack = append(r.stack, v)
		if !r.next() && !r.done {
			return nil, false
		}
		if !r.done && r.indent > indent {
			return nil, false
		}
	}
	r.content(s, from)
	return s, true
}

// isEntry reports whether a line (after its indentation) is a sequence
// entry: "-", one space, and a value.
func isEntry(text string) bool {
	return len(text) > 2 && text[0] == '-' && text[1] == ' ' && text[2] != ' '
}

// value is the value after "key: ": an empty flow collection or a
// one-line scalar.
func (r *plainReader) value(v string, line, col int) (*yaml.Node, bool) {
	switch v {
	case "[]":
		return r.node(yaml.SequenceNode, yaml.FlowStyle, "!!seq", "", line, col), true
	case "{}":
		return r.node(yaml.MappingNode, yaml.FlowStyle, "!!map", "", line, col), true
	}
	return r.oneLineScalar(v, line, col)
}

// oneLineScalar is a plain scalar, or a quoted one without escapes or
// quotes inside.
func (r *plainReader) oneLineScalar(v string, line, col int) (*yaml.Node, bool) {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
		q := v[0]
		in := v[1 : len(v)-1]
		if v[len(v)-1] != q || strings.IndexByte(in, q) >= 0 || q == '"' && strings.IndexByte(in, '\\') >= 0 || !printable(in) {
			return nil, false
		}
		style := yaml.DoubleQuotedStyle
		if q == '\'' {
			style = yaml.SingleQuotedStyle
		}
		return r.node(yaml.ScalarNode, style, "!!str", strings.Clone(in), line, col), true
	}
	return r.plainScalar(v, line, col)
}

// plainKey reports whether k is a key plainYAML reads: letters, digits,
// "_" and "-", starting with a letter or "_".
func plainKey(k string) bool {
	if len(k) > 256 || !(isLetter(k[0]) || k[0] == '_') {
		return false
	}
	for i := range len(k) {
		if c := k[i]; !isLetter(c) && !('0' <= c && c <= '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// plainScalar is a one-line plain scalar in block context, or false for
// text that is not one (or might not be): one that starts with an
// indicator character (a leading "-" is taken only before a digit or a
// "."), holds ": " or " #", ends in ":" or a space, or holds a character
// that printable refuses.
func (r *plainReader) plainScalar(v string, line, col int) (*yaml.Node, bool) {
	if len(v) == 0 || v[len(v)-1] == ' ' || v[len(v)-1] == ':' {
		return nil, false
	}
	switch v[0] {
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '<':
		return nil, false
	case '-':
		if len(v) < 2 || !('0' <= v[1] && v[1] <= '9' || v[1] == '.') {
			return nil, false
		}
	}
	if strings.Contains(v, ": ") || strings.Contains(v, " #") || !printable(v) {
		return nil, false
	}
	return r.scalar(strings.Clone(v), line, col), true
}

// printable reports whether every character of v is one YAML reads as
// part of a one-line scalar: no control character, nothing it takes for
// a line break or a byte-order mark, valid UTF-8.
func printable(v string) bool {
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c < ' ' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		if !yamlPrintable(r) || r == utf8.RuneError && size == 1 {
			return false
		}
		i += size
	}
	return true
}

// yamlPrintable reports whether r, outside ASCII, is a character plainYAML
// takes in a scalar: not one YAML reads as a line break or refuses, and
// not a byte-order mark (which YAML takes inside a text, but which is
// left to it).
func yamlPrintable(r rune) bool {
	switch {
	case r == 0x2028, r == 0x2029, r == 0xFEFF:
		return false
	case 0xA0 <= r && r <= 0xD7FF, 0xE000 <= r && r <= 0xFFFD, 0x10000 <= r && r <= 0x10FFFF:
		return true
	}
	return false
}

// scalar is a plain scalar's node, tagged as YAML resolves its text.
func (r *plainReader) scalar(v string, line, col int) *yaml.Node {
	n := r.node(yaml.ScalarNode, 0, "!!str", v, line, col)
	if !isLetter(v[0]) {
		if n.Tag = numberTag(v); n.Tag == "" {
			n.Tag = n.ShortTag()
		}
		return n
	}
	// A text that starts with a letter is a string but for these words.
	switch v {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		n.Tag = "!!bool"
	case "null", "Null", "NULL":
		n.Tag = "!!null"
	}
	return n
}

// numberTag is the tag YAML resolves the numbers and times curator
// writes to ("!!int" for "12", "!!float" for "0.95", "!!timestamp" for
// "2026-11-29T09:12:00Z"), or "" when the text is not one of those
// shapes (other numbers among them, which the caller has YAML resolve).
func numberTag(v string) string {
	digits := func(s string) bool {
		for i := range len(s) {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return len(s) > 0
	}
	switch {
	case len(v) <= 18 && digits(v) && (v[0] != '0' || len(v) == 1):
		return "!!int"
	case (len(v) <= 18 && v[0] != '0') || strings.HasPrefix(v, "0."):
		if whole, frac, ok := strings.Cut(v, "."); ok && digits(whole) && digits(frac) {
			return "!!float"
		}
	case len(v) == 20 && v[4] == '-' && v[7] == '-' && v[10] == 'T' && v[13] == ':' && v[16] == ':' && v[19] == 'Z':
		if _, err := time.Parse("2006-1-2T15:4:5.999999999Z07:00", v); err == nil {
			return "!!timestamp" // the first of the layouts YAML tries
		}
	}
	return ""
}
