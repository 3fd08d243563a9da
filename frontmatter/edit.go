package frontmatter

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// SetAll sets several top-level keys at once, with the same guarantees as
// Set but one check of the result (Set re-checks after each key).
func (d *Document) SetAll(pairs ...KV) error {
	lines := splitLines(d.yaml)
	if spans, ok := scanKeys(lines); ok {
		if err := d.setAll(lines, pairs, func(key string) (int, int, bool) {
			sp, ok := spans[key]
			return sp[0], sp[1], ok
		}, 0, len(spans)); err == nil {
			return nil
		}
		// The line scan misread an unusual layout: do it with the parser.
	}
	root, err := d.root()
	if err != nil {
		return err
	}
	col := 0
	if len(root.Content) > 0 {
		col = root.Content[0].Column - 1
	}
	return d.setAll(lines, pairs, func(key string) (int, int, bool) { return keySpan(root, key, lines) }, col, -1)
}

// setAll replaces the spans of the keys (appending absent ones) and checks
// the result with the parser. With keys >= 0 it also checks that the result
// has keys + appended top-level keys, which catches a misread layout.
func (d *Document) setAll(lines []string, pairs []KV, span func(string) (int, int, bool), col, keys int) error {
	type edit struct {
		start, end int
		enc        []byte
	}
	var edits []edit
	var appended []byte
	added := 0
	for _, p := range pairs {
		enc, err := encodeKey(p.Key, p.Value)
		if err != nil {
			return err
		}
		enc = d.lineEnds(indent(enc, col))
		if start, end, ok := span(p.Key); ok {
			edits = append(edits, edit{start, end, enc})
		} else {
			appended = append(appended, enc...)
			added++
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	for i, e := range edits {
		if i > 0 && e.end > edits[i-1].start {
			return fmt.Errorf("editing keys in place: overlapping keys")
		}
		repl := splitLines(e.enc)
		lines = append(lines[:e.start], append(repl, lines[e.end:]...)...)
	}
	y := append([]byte(strings.Join(lines, "")), appended...)
	if bytes.Equal(y, d.yaml) {
		return nil
	}
	n, err := d.parse(y)
	if err != nil {
		return fmt.Errorf("editing keys in place: %w", err)
	}
	for _, p := range pairs {
		if keyCount(n, p.Key) != 1 {
			return fmt.Errorf("editing keys in place: key %q would not be unique", p.Key)
		}
	}
	if keys >= 0 && len(n.Content)/2 != keys+added {
		return fmt.Errorf("editing keys in place: the layout was misread")
	}
	d.yaml, d.node = y, nil
	if !d.HasFrontmatter() {
		d.head = []byte("---\n")
		d.tail = []byte("---\n")
	}
	return nil
}

// Set gives a top-level key a new value. Only the lines of that key change; a
// key that was absent is appended at the end of the frontmatter. Setting a
// key to the value it already has leaves the bytes untouched.
func (d *Document) Set(key string, value any) error {
	enc, err := encodeKey(key, value)
	if err != nil {
		return err
	}
	root, err := d.root()
	if err != nil {
		return err
	}
	lines := splitLines(d.yaml)
	start, end, ok := keySpan(root, key, lines)
	if !ok {
		if len(root.Content) > 0 {
			enc = indent(enc, root.Content[0].Column-1)
		}
		return d.replaceYAML(append(append([]byte(nil), d.yaml...), d.lineEnds(enc)...), key)
	}
	enc = d.lineEnds(indent(enc, root.Content[0].Column-1))
	old := []byte(strings.Join(lines[start:end], ""))
	if bytes.Equal(old, enc) {
		return nil
	}
	var out []byte
	out = append(out, strings.Join(lines[:start], "")...)
	out = append(out, enc...)
	out = append(out, strings.Join(lines[end:], "")...)
	return d.replaceYAML(out, key)
}

// lineEnds gives encoded key lines the document's line ends: CRLF when its
// frontmatter opens with "---\r\n", so an edited Windows file stays one.
func (d *Document) lineEnds(enc []byte) []byte {
	if !bytes.HasSuffix(d.head, []byte("\r\n")) {
		return enc
	}
	return bytes.ReplaceAll(enc, []byte("\n"), []byte("\r\n"))
}

// replaceYAML installs edited YAML after checking that it still parses as a
// mapping; odd layouts that a line edit cannot handle are refused, not broken.
func (d *Document) replaceYAML(y []byte, key string) error {
	root, err := d.parse(y)
	if err == nil && keyCount(root, key) != 1 {
		err = fmt.Errorf("key %q would not be unique", key)
	}
	if err != nil {
		return fmt.Errorf("editing %s in place: %w", key, err)
	}
	d.yaml, d.node = y, nil
	if !d.HasFrontmatter() {
		d.head = []byte("---\n")
		d.tail = []byte("---\n")
	}
	return nil
}

func keyCount(root *yaml.Node, key string) int {
	n := 0
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Value == key && !isNullKey(k) {
			n++
		}
	}
	return n
}

// Delete removes a top-level key and its lines. Deleting an absent key does nothing.
func (d *Document) Delete(key string) error {
	root, err := d.root()
	if err != nil {
		return err
	}
	lines := splitLines(d.yaml)
	start, end, ok := keySpan(root, key, lines)
	if !ok {
		return nil
	}
	d.yaml = []byte(strings.Join(append(lines[:start:start], lines[end:]...), ""))
	d.node = nil
	return nil
}

// isNullKey reports whether a key node is YAML's null ("&a:", "~:"):
// not the string its text is, and never a key a record is asked for.
func isNullKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.ShortTag() == "!!null"
}

// keySpan returns the half-open range of YAML lines (0-based) that hold a
// top-level key and its value. Comment and blank lines after the value belong
// to what follows, not to the key.
func keySpan(root *yaml.Node, key string, lines []string) (int, int, bool) {
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k.Value != key || isNullKey(k) {
			continue
		}
		start := k.Line - 1
		end := len(lines)
		if i+2 < len(root.Content) {
			end = root.Content[i+2].Line - 1
			// A comment attached to the next key sits above it.
			if hc := root.Content[i+2].HeadComment; hc != "" {
				end -= strings.Count(hc, "\n") + 1
			}
		}
		last := lastLine(root.Content[i+1]) - 1
		for end > start+1 && end-1 > last {
			t := strings.TrimSpace(lines[end-1])
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			end--
		}
		if end < start+1 {
			end = start + 1
		}
		return start, end, true
	}
	return 0, 0, false
}

// lastLine is the highest line any part of a node starts on; block scalars
// span more lines, which the caller keeps because they are not blank.
func lastLine(n *yaml.Node) int {
	l := n.Line
	for _, c := range n.Content {
		if cl := lastLine(c); cl > l {
			l = cl
		}
	}
	return l
}

// Encoded is a key and its value already rendered as YAML ("key: value\n"),
// for a value that many documents get: encoding it once saves time.
type Encoded []byte

// Encode renders a key and its value for SetAll.
func Encode(key string, value any) (Encoded, error) {
	b, err := encodeKey(key, value)
	return Encoded(b), err
}

func encodeKey(key string, value any) ([]byte, error) {
	if e, ok := value.(Encoded); ok {
		return e, nil
	}
	var v yaml.Node
	if n, ok := value.(*yaml.Node); ok {
		v = *n
	} else if err := v.Encode(value); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", key, err)
	}
	m := yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, &v,
	}}
	var buf bytes.Buffer
	e := yaml.NewEncoder(&buf)
	e.SetIndent(2)
	if err := e.Encode(&m); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", key, err)
	}
	_ = e.Close()
	return buf.Bytes(), nil
}

// splitLines splits b after each "\n", keeping the newlines.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := string(b)
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// New builds a document from ordered key/value pairs and a body.
func New(body []byte, pairs ...KV) (*Document, error) {
	d := &Document{head: []byte("---\n"), tail: []byte("---\n"), yamlLine: 2}
	for _, p := range pairs {
		enc, err := encodeKey(p.Key, p.Value)
		if err != nil {
			return nil, err
		}
		d.yaml = append(d.yaml, enc...)
	}
	d.body = body
	return d, nil
}

// KV is one key and its value, for New.
type KV struct {
	Key   string
	Value any
}

// indent prefixes every line of b with n spaces, to match the column of the
// mapping's existing keys.
func indent(b []byte, n int) []byte {
	if n <= 0 {
		return b
	}
	pad := strings.Repeat(" ", n)
	lines := splitLines(b)
	for i := range lines {
		lines[i] = pad + lines[i]
	}
	return []byte(strings.Join(lines, ""))
}

// scanKeys finds the line span of every top-level key without the YAML
// parser: a top-level key is a line at column 0 that is not blank, not a
// comment and not a "- " sequence entry. It reports false for layouts it
// does not read (quoted or complex keys, indented mappings, duplicates).
func scanKeys(lines []string) (map[string][2]int, bool) {
	spans := map[string][2]int{}
	last := ""
	lastStart := 0
	closeLast := func(end int) {
		if last == "" {
			return
		}
		for end > lastStart+1 {
			t := strings.TrimSpace(lines[end-1])
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			end--
		}
		spans[last] = [2]int{lastStart, end}
	}
	for i, l := range lines {
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '\n' || l[0] == '\r' {
			if i == 0 && (l[0] == ' ' || l[0] == '\t') {
				return nil, false
			}
			continue
		}
		if l[0] == '-' && (len(l) == 1 || l[1] == ' ' || l[1] == '\n' || l[1] == '\r') {
			continue
		}
		key, rest, ok := strings.Cut(l, ":")
		if !ok || key == "" || strings.ContainsAny(key, "\"'{}[]&*!|>%@`#,?") || strings.TrimSpace(key) != key {
			return nil, false
		}
		if !oneLineValue(rest) {
			return nil, false
		}
		if _, dup := spans[key]; dup || key == last {
			return nil, false
		}
		closeLast(i)
		last, lastStart = key, i
	}
	closeLast(len(lines))
	return spans, true
}

// oneLineValue reports whether the value after a top-level key cannot
// continue on a line at column 0: empty (a block follows, indented or as
// "- " entries), a block scalar, a plain scalar, or a flow collection or
// quoted scalar that closes on the same line. Anchors, aliases and tags are
// left to the parser.
func oneLineValue(rest string) bool {
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\n' && rest[0] != '\r' {
		return false // "key:value" is not a key line we read
	}
	v := strings.TrimSpace(rest)
	if v == "" {
		return true
	}
	switch v[0] {
	case '{':
		return strings.HasSuffix(v, "}") && !strings.ContainsAny(v, "\"'#")
	case '[':
		return strings.HasSuffix(v, "]") && !strings.ContainsAny(v, "\"'#")
	case '"':
		return len(v) >= 2 && strings.HasSuffix(v, "\"") && !strings.HasSuffix(v, "\\\"") && strings.Count(v, "\"") == 2
	case '\'':
		return len(v) >= 2 && strings.HasSuffix(v, "'") && strings.Count(v, "'") == 2
	case '&', '*', '!', '%', '@', '`':
		return false
	}
	return true
}
