package merge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// value is a JSON value that keeps its object keys in file order and its
// scalars as the exact bytes of the file.
type value struct {
	keys  []string          // object keys in order (obj only)
	obj   map[string]*value // nil unless an object
	arr   []*value          // elements when an array (isArr)
	raw   []byte            // a scalar's bytes
	isArr bool
}

// checkJSON parses a JSON file, naming the line of a syntax error.
func checkJSON(_ *reads, data []byte) error {
	_, err := parseJSON(data)
	return err
}

func parseJSON(data []byte) (*value, error) {
	v, err := parseValue(data)
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")) + 1
			return nil, fmt.Errorf("line %d: %v", line, se)
		}
		return nil, err
	}
	return v, nil
}

func parseValue(data []byte) (*value, error) {
	if !json.Valid(data) {
		var x any
		err := json.Unmarshal(data, &x)
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, err
	}
	return build(bytes.TrimSpace(data))
}

// build turns valid JSON into a value tree.
func build(data []byte) (*value, error) {
	switch data[0] {
	case '{':
		v := &value{obj: map[string]*value{}}
		dec := json.NewDecoder(bytes.NewReader(data))
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := tok.(string)
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, err
			}
			c, err := build(raw)
			if err != nil {
				return nil, err
			}
			if _, dup := v.obj[k]; !dup {
				v.keys = append(v.keys, k)
			}
			v.obj[k] = c
		}
		return v, nil
	case '[':
		v := &value{isArr: true}
		var raws []json.RawMessage
		if err := json.Unmarshal(data, &raws); err != nil {
			return nil, err
		}
		for _, r := range raws {
			c, err := build(r)
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, c)
		}
		return v, nil
	}
	return &value{raw: append([]byte(nil), data...)}, nil
}

// canon is a value's compact JSON, for comparing values.
func (v *value) canon() string {
	if v == nil {
		return ""
	}
	var b strings.Builder
	v.write(&b, "", "", nil, "")
	return b.String()
}

// write renders v; with indent it is laid out like json.MarshalIndent. mark
// collects the line of each conflicting path as it is written.
func (v *value) write(w io.StringWriter, prefix, indent string, lines *lineCounter, path string) {
	nl := func(p string) {
		if indent != "" {
			_, _ = w.WriteString("\n" + p)
			if lines != nil {
				lines.n++
			}
		}
	}
	sep := ":"
	if indent != "" {
		sep = ": "
	}
	switch {
	case v.obj != nil:
		if len(v.keys) == 0 {
			_, _ = w.WriteString("{}")
			return
		}
		_, _ = w.WriteString("{")
		for i, k := range v.keys {
			if i > 0 {
				_, _ = w.WriteString(",")
			}
			nl(prefix + indent)
			kp := joinPath(path, k)
			if lines != nil {
				lines.at[kp] = lines.n
			}
			name, _ := json.Marshal(k)
			_, _ = w.WriteString(string(name) + sep)
			v.obj[k].write(w, prefix+indent, indent, lines, kp)
		}
		nl(prefix)
		_, _ = w.WriteString("}")
	case v.isArr:
		if len(v.arr) == 0 {
			_, _ = w.WriteString("[]")
			return
		}
		_, _ = w.WriteString("[")
		for i, c := range v.arr {
			if i > 0 {
				_, _ = w.WriteString(",")
			}
			nl(prefix + indent)
			c.write(w, prefix+indent, indent, lines, fmt.Sprintf("%s[%d]", path, i))
		}
		nl(prefix)
		_, _ = w.WriteString("]")
	default:
		var b bytes.Buffer
		if json.Compact(&b, v.raw) == nil {
			_, _ = w.WriteString(b.String())
		} else {
			_, _ = w.WriteString(string(v.raw))
		}
	}
}

// lineCounter records the 1-based output line of each object key path.
type lineCounter struct {
	n  int
	at map[string]int
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// render writes the merged tree with two-space indents and a final line
// end, CRLF when ours used CRLF, and fills each conflict's line.
func render(v *value, crlf bool, conflicts []Conflict) []byte {
	var b strings.Builder
	lc := &lineCounter{n: 1, at: map[string]int{}}
	v.write(&b, "", "  ", lc, "")
	b.WriteString("\n")
	for i := range conflicts {
		conflicts[i].Line = lc.at[conflicts[i].Key]
	}
	out := b.String()
	if crlf {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	return []byte(out)
}
