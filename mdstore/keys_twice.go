package mdstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// KeyGivenTwice refuses JSON text that gives a key twice in one object, at
// any depth: JSON keeps the last, and which one was meant is not for
// curator to guess. Keys are compared as JSON reads them (escapes
// decoded, bytes that are not UTF-8 read as U+FFFD). The error names the
// line, the key by its path ("skills", "skills[2].content") and the line it
// was first given on. The text is read once, keeping only the keys of the
// objects still open; text that is not JSON (or nests deeper than the JSON
// decoder reads) is left to the JSON decoder to report.
func KeyGivenTwice(data []byte) error {
	if err := keyGivenTwice(data); err != nil {
		return fmt.Errorf("line %d: %s", err.line, err.msg)
	}
	return nil
}

// keyGivenTwice is KeyGivenTwice's finding, nil when there is none.
func keyGivenTwice(data []byte) *shapeError {
	if !json.Valid(data) {
		return nil
	}
	// level is an object or array still open: an object's keys so far
	// (each with the offset it was first given at) and current key, an
	// array's current element.
	type level struct {
		object bool
		keys   map[string]int
		key    string
		index  int
	}
	var open []level
	wantKey := false
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{':
			open = append(open, level{object: true})
			wantKey = true
		case '[':
			open = append(open, level{})
			wantKey = false
		case '}', ']':
			if len(open) == 0 {
				return nil
			}
			open = open[:len(open)-1]
			wantKey = false
		case ',':
			if len(open) == 0 {
				return nil
			}
			if top := &open[len(open)-1]; top.object {
				wantKey = true
			} else {
				top.index++
			}
		case '"':
			end, escaped := stringEnd(data, i)
			if end < 0 {
				return nil
			}
			if wantKey && len(open) > 0 && open[len(open)-1].object {
				key := string(data[i+1 : end])
				if (escaped || !utf8.Valid(data[i+1:end])) && json.Unmarshal(data[i:end+1], &key) != nil {
					return nil
				}
				top := &open[len(open)-1]
				if first, twice := top.keys[key]; twice {
					var name strings.Builder
					for j, l := range open[:len(open)-1] {
						if j > 0 && l.object {
							name.WriteByte('.')
						}
						if l.object {
							name.WriteString(l.key)
						} else {
							fmt.Fprintf(&name, "[%d]", l.index)
						}
					}
					if name.Len() > 0 {
						name.WriteByte('.')
					}
					return &shapeError{line: lineAt(data, i), msg: fmt.Sprintf("%s%s is given twice (first on line %d)", name.String(), key, lineAt(data, first))}
				}
				if top.keys == nil {
					top.keys = map[string]int{}
				}
				top.keys[key], top.key = i, key
				wantKey = false
			}
			i = end
		}
	}
	return nil
}

// stringEnd is the offset of the quote that closes the JSON string opening
// at data[at], and whether the string holds an escape; -1 when it is not
// closed.
func stringEnd(data []byte, at int) (int, bool) {
	escaped := false
	for i := at + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			return i, escaped
		}
	}
	return -1, escaped
}

// lineAt is the line (from 1) of the byte at offset off.
func lineAt(data []byte, off int) int {
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// givenTwice finds a key given twice in one mapping; prefix names the
// mapping in messages ("lessons[0].").
func givenTwice(n *yaml.Node, prefix string) *shapeError {
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if first, twice := seen[k.Value]; twice {
			return &shapeError{line: k.Line, msg: fmt.Sprintf("%s%s is given twice (first on line %d)", prefix, k.Value, first)}
		}
		seen[k.Value] = k.Line
	}
	return nil
}
