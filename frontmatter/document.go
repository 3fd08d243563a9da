package frontmatter

import (
	"bufio"
	"bytes"
	"fmt"
	"sync"

	adrg "github.com/adrg/frontmatter"
	"go.yaml.in/yaml/v3"
)

// Document is one markdown file split into its frontmatter and its body.
// The zero value is an empty document without frontmatter.
type Document struct {
	head []byte // leading blank lines and the opening "---" line
	yaml []byte // the YAML text between the delimiters, ending in "\n" or empty
	tail []byte // the closing "---" line
	body []byte
	// yamlLine is the file line number of the first YAML line.
	yamlLine int
	// node holds the mapping that Parse checked until Decode uses it; it is
	// not kept longer, so that many documents in memory stay small.
	node *yaml.Node
}

// Parse splits data into frontmatter and body and checks the YAML. A
// document without a frontmatter block is valid: it has an empty frontmatter
// and data is its body. An opening "---" without a closing one is an error.
func Parse(data []byte) (*Document, error) {
	d, err := Split(data)
	if err != nil {
		return nil, err
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	return d, nil
}

// Split is Parse without the YAML check, for a document that was checked
// before and is about to be edited (edits check their result).
func Split(data []byte) (*Document, error) {
	var captured []byte
	capture := adrg.NewFormat("---", "---", func(b []byte, _ any) error {
		captured = b
		return nil
	})
	br := readers.Get().(*bufio.Reader)
	br.Reset(bytes.NewReader(data))
	rest, err := adrg.Parse(br, nil, capture)
	br.Reset(nil)
	readers.Put(br)
	if err != nil {
		return nil, fmt.Errorf("reading frontmatter: %w", err)
	}
	if captured == nil {
		if opensFrontmatter(data) {
			return nil, &Error{Line: 1, Msg: `frontmatter opened with "---" is never closed`}
		}
		return &Document{body: data, yamlLine: 1}, nil
	}
	split := len(data) - len(rest)
	prefix := data[:split]
	open := firstLineEnd(prefix)
	closing := open + len(captured)
	if !closes(data[closing:]) {
		// The reader stopped at an indented "---", which is text inside a
		// YAML value: the frontmatter ends at the next unindented one.
		end, ok := nextCloser(data, closing)
		if !ok {
			return nil, &Error{Line: 1, Msg: `frontmatter opened with "---" is never closed`}
		}
		closing, split = end, end+lineLen(data[end:])
	}
	d := &Document{
		head: data[:open],
		yaml: data[open:closing],
		tail: data[closing:split],
		body: data[split:],
	}
	d.yamlLine = bytes.Count(d.head, []byte("\n")) + 1
	return d, nil
}

// readers are the buffered readers the frontmatter reader reads documents
// through: it wraps any other reader in a new buffer of 4 KiB, one per
// document, which a pass over 100,000 files would allocate and collect
// again. What it returns is its own copy, never the buffer's bytes.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

// closes reports whether the line at the start of b closes a frontmatter
// block: "---" in the first column, then nothing but spaces. An indented
// "---" is part of a YAML value (a block scalar's text), never a delimiter.
func closes(b []byte) bool {
	line := b[:lineLen(b)]
	rest, ok := bytes.CutPrefix(line, []byte("---"))
	return ok && len(bytes.TrimRight(rest, " \t\r\n")) == 0
}

// nextCloser is the offset of the first line after the one at from that
// closes the frontmatter.
func nextCloser(data []byte, from int) (int, bool) {
	for off := from + lineLen(data[from:]); off < len(data); off += lineLen(data[off:]) {
		if closes(data[off:]) {
			return off, true
		}
	}
	return 0, false
}

// lineLen is the length of the first line of b with its "\n".
func lineLen(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	return len(b)
}

// opensFrontmatter reports whether the first non-blank line of data is "---".
func opensFrontmatter(data []byte) bool {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		return string(t) == "---"
	}
	return false
}

// firstLineEnd returns the offset just after the first non-blank line.
func firstLineEnd(b []byte) int {
	off := 0
	for off < len(b) {
		i := bytes.IndexByte(b[off:], '\n')
		end := len(b)
		if i >= 0 {
			end = off + i + 1
		}
		if len(bytes.TrimSpace(b[off:end])) > 0 {
			return end
		}
		off = end
	}
	return off
}

// check parses the YAML once to report syntax errors with file line numbers
// and to make sure the frontmatter is a mapping.
func (d *Document) check() error {
	n, err := d.parse(d.yaml)
	d.node = n
	return err
}

// root returns the YAML parsed into a mapping node, parsing it once. An
// empty frontmatter yields an empty mapping.
func (d *Document) root() (*yaml.Node, error) {
	if d.node != nil {
		return d.node, nil
	}
	return d.parse(d.yaml)
}

func (d *Document) parse(y []byte) (*yaml.Node, error) {
	if m, ok := plainYAML(y); ok {
		return m, nil
	}
	var n yaml.Node
	if err := yaml.Unmarshal(y, &n); err != nil {
		return nil, d.wrap(err)
	}
	if n.Kind == 0 {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, nil
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) != 1 || n.Content[0].Kind != yaml.MappingNode {
		return nil, &Error{Line: d.yamlLine, Msg: "frontmatter is not a mapping of keys to values"}
	}
	return n.Content[0], nil
}

// HasFrontmatter reports whether the document had (or now has) a frontmatter block.
func (d *Document) HasFrontmatter() bool { return len(d.head) > 0 }

// Body returns the bytes after the frontmatter block.
func (d *Document) Body() []byte { return d.body }

// SetBody replaces the body.
func (d *Document) SetBody(b []byte) { d.body = append([]byte(nil), b...) }

// Bytes returns the whole document.
func (d *Document) Bytes() []byte {
	out := make([]byte, 0, len(d.head)+len(d.yaml)+len(d.tail)+len(d.body))
	out = append(out, d.head...)
	out = append(out, d.yaml...)
	out = append(out, d.tail...)
	return append(out, d.body...)
}

// Decode unmarshals the frontmatter into v (a pointer to a struct or map).
// Type errors name the file line of the offending value.
func (d *Document) Decode(v any) error {
	root, err := d.root()
	if err != nil {
		return err
	}
	d.node = nil
	if err := root.Decode(v); err != nil {
		return d.wrap(err)
	}
	return nil
}

// Line returns the file line number of a top-level key, or 0 when absent.
func (d *Document) Line(key string) int {
	root, err := d.root()
	if err != nil {
		return 0
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Value == key && !isNullKey(k) {
			return k.Line + d.yamlLine - 1
		}
	}
	return 0
}

// Keys returns the top-level keys in file order.
func (d *Document) Keys() []string {
	root, err := d.root()
	if err != nil {
		return nil
	}
	keys := make([]string, 0, len(root.Content)/2)
	for i := 0; i+1 < len(root.Content); i += 2 {
		if !isNullKey(root.Content[i]) {
			keys = append(keys, root.Content[i].Value)
		}
	}
	return keys
}
