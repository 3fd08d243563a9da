package agentsetup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// MCPJSON is Claude Code's project file of MCP servers.
const MCPJSON = ".mcp.json"

// jsonObject is a JSON object whose members keep their order. Values are
// strings, []string or jsonObject.
type jsonObject []jsonMember

type jsonMember struct {
	Key   string
	Value any
}

// curatorServer is curator's entry in .mcp.json's mcpServers.
var curatorServer = jsonObject{{"command", "curator"}, {"args", []string{"mcp"}}}

// mergeResult is what mergeServer found.
type mergeResult int

const (
	// serverAdded: the entry was added (the file changes).
	serverAdded mergeResult = iota
	// serverSame: an equivalent entry of that name is there already.
	serverSame
	// serverOther: a different entry of that name is there; it is kept.
	serverOther
)

// mergeServer adds the server entry to mcpServers of an .mcp.json file's
// bytes, keeping everything else byte for byte: the other keys and their
// order, the indentation, the colon spacing and the line endings of the
// file. The new member goes after the last one of its object. An entry of
// that name already there is never replaced: equivalent (same command and
// args; "type": "stdio" and an empty "env" make no difference) is
// serverSame, anything else serverOther; data is returned as it is. Empty
// or blank data is a new file. Invalid JSON is an error with its line.
func mergeServer(data []byte, name string, entry jsonObject) ([]byte, mergeResult, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		st := jsonStyle{nl: "\n", unit: "  ", colon: ": "}
		out := st.render(jsonObject{{"mcpServers", jsonObject{{name, entry}}}}, "")
		return []byte(out + st.nl), serverAdded, nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, 0, &jsonError{Line: lineAt(data, int(se.Offset)), Msg: err.Error()}
		}
		return nil, 0, err
	}
	start := skipSpace(data, 0)
	if data[start] != '{' {
		return nil, 0, &jsonError{Line: lineAt(data, start), Msg: "the top level is not a JSON object"}
	}
	top := scanObject(data, start)
	st := styleOf(data, top)
	servers, ok := top.last("mcpServers")
	if !ok {
		return top.add(data, st, "mcpServers", jsonObject{{name, entry}}), serverAdded, nil
	}
	if data[servers.valStart] != '{' {
		return nil, 0, &jsonError{Line: lineAt(data, servers.valStart), Msg: "mcpServers is not a JSON object"}
	}
	obj := scanObject(data, servers.valStart)
	if have, ok := obj.last(name); ok {
		if sameServer(data[have.valStart:have.valEnd], entry) {
			return data, serverSame, nil
		}
		return data, serverOther, nil
	}
	return obj.add(data, st, name, entry), serverAdded, nil
}

// jsonError is a file that is not the JSON expected, at a line.
type jsonError struct {
	Line int
	Msg  string
}

func (e *jsonError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// sameServer says whether a server entry's JSON does what entry does.
func sameServer(raw []byte, entry jsonObject) bool {
	var have map[string]any
	if json.Unmarshal(raw, &have) != nil {
		return false
	}
	if have["type"] == "stdio" {
		delete(have, "type")
	}
	if env, ok := have["env"].(map[string]any); ok && len(env) == 0 {
		delete(have, "env")
	}
	var want map[string]any
	b, _ := json.Marshal(entry)
	_ = json.Unmarshal(b, &want)
	return reflect.DeepEqual(have, want)
}

// MarshalJSON writes the members in order (for comparisons and tests).
func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// objectSpan is where a JSON object and its members are in the file.
type objectSpan struct {
	open, close int
	members     []memberSpan
}

// memberSpan is one member: its key's quotes and its value.
type memberSpan struct {
	key              string
	keyStart, keyEnd int
	valStart, valEnd int
}

// last returns the member named key; of duplicates the last, as a JSON
// decoder reads them.
func (o objectSpan) last(key string) (memberSpan, bool) {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			return o.members[i], true
		}
	}
	return memberSpan{}, false
}

// add returns data with key: value as the object's last member, in the
// object's own layout: one member a line at its members' indentation, or
// on one line when the object is written on one line.
func (o objectSpan) add(data []byte, st jsonStyle, key string, value any) []byte {
	k, _ := json.Marshal(key)
	var ins string
	at, end := 0, 0
	if n := len(o.members); n > 0 {
		first, lastm := o.members[0], o.members[n-1]
		at, end = lastm.valEnd, lastm.valEnd
		gap := string(data[o.open+1 : first.keyStart])
		if i := strings.LastIndexByte(gap, '\n'); i >= 0 {
			if st.unit == "" {
				st.unit = "  "
			}
			indent := gap[i+1:]
			ins = "," + st.nl + indent + string(k) + st.colon + st.render(value, indent)
		} else {
			sep := ","
			if n > 1 {
				sep = string(data[o.members[0].valEnd:o.members[1].keyStart])
			} else if strings.HasSuffix(st.colon, " ") {
				sep = ", "
			}
			ins = sep + string(k) + st.colon + st.compact(value)
		}
	} else {
		at, end = o.open+1, o.close
		if st.unit == "" {
			ins = string(k) + st.colon + st.compact(value)
		} else {
			own := lineIndent(data, o.open)
			indent := own + st.unit
			ins = st.nl + indent + string(k) + st.colon + st.render(value, indent) + st.nl + own
		}
	}
	out := make([]byte, 0, len(data)+len(ins))
	out = append(out, data[:at]...)
	out = append(out, ins...)
	return append(out, data[end:]...)
}

// jsonStyle is how a file writes its JSON.
type jsonStyle struct {
	// nl is "\n" or "\r\n".
	nl string
	// unit is one level of indentation; "" for a file on one line.
	unit string
	// colon is what stands between a key and its value, e.g. ": ".
	colon string
}

// styleOf reads the style of a file from its top-level object: the
// indentation of its first member, the colon of that member, the line
// ending. An empty top-level object is indented by two spaces.
func styleOf(data []byte, top objectSpan) jsonStyle {
	st := jsonStyle{nl: "\n", unit: "  ", colon: ": "}
	if bytes.Contains(data, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	if len(top.members) == 0 {
		return st
	}
	m := top.members[0]
	if c := string(data[m.keyEnd:m.valStart]); !strings.ContainsAny(c, "\r\n") {
		st.colon = c
	}
	gap := string(data[top.open+1 : m.keyStart])
	i := strings.LastIndexByte(gap, '\n')
	if i < 0 {
		st.unit = ""
		return st
	}
	if unit := strings.TrimPrefix(gap[i+1:], lineIndent(data, top.open)); unit != "" {
		st.unit = unit
	}
	return st
}

// render writes v as indented JSON whose closing line is at indent.
func (st jsonStyle) render(v any, indent string) string {
	inner := indent + st.unit
	switch v := v.(type) {
	case jsonObject:
		if len(v) == 0 {
			return "{}"
		}
		parts := make([]string, len(v))
		for i, m := range v {
			k, _ := json.Marshal(m.Key)
			parts[i] = inner + string(k) + st.colon + st.render(m.Value, inner)
		}
		return "{" + st.nl + strings.Join(parts, ","+st.nl) + st.nl + indent + "}"
	case []string:
		if len(v) == 0 {
			return "[]"
		}
		parts := make([]string, len(v))
		for i, s := range v {
			b, _ := json.Marshal(s)
			parts[i] = inner + string(b)
		}
		return "[" + st.nl + strings.Join(parts, ","+st.nl) + st.nl + indent + "]"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// compact writes v on one line, spaced as the colon is.
func (st jsonStyle) compact(v any) string {
	sep := ","
	if strings.HasSuffix(st.colon, " ") {
		sep = ", "
	}
	switch v := v.(type) {
	case jsonObject:
		parts := make([]string, len(v))
		for i, m := range v {
			k, _ := json.Marshal(m.Key)
			parts[i] = string(k) + st.colon + st.compact(m.Value)
		}
		return "{" + strings.Join(parts, sep) + "}"
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			b, _ := json.Marshal(s)
			parts[i] = string(b)
		}
		return "[" + strings.Join(parts, sep) + "]"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// scanObject finds the members of the object that opens at data[i]. data
// is valid JSON (checked before).
func scanObject(data []byte, i int) objectSpan {
	o := objectSpan{open: i}
	i = skipSpace(data, i+1)
	for data[i] != '}' {
		m := memberSpan{keyStart: i}
		m.keyEnd = skipValue(data, i)
		_ = json.Unmarshal(data[m.keyStart:m.keyEnd], &m.key)
		i = skipSpace(data, m.keyEnd) + 1 // the colon
		m.valStart = skipSpace(data, i)
		m.valEnd = skipValue(data, m.valStart)
		o.members = append(o.members, m)
		i = skipSpace(data, m.valEnd)
		if data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	o.close = i
	return o
}

// skipValue returns the offset just after the JSON value at data[i].
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		for i++; i < len(data); i++ {
			switch data[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return i
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipValue(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(data) && !strings.ContainsRune(",}] \t\r\n", rune(data[i])) {
		i++
	}
	return i
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && strings.ContainsRune(" \t\r\n", rune(data[i])) {
		i++
	}
	return i
}

// lineIndent is the leading blanks of the line that holds data[i].
func lineIndent(data []byte, i int) string {
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	end := start
	for end < i && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

// lineAt is the 1-based line of offset i.
func lineAt(data []byte, i int) int {
	if i > len(data) {
		i = len(data)
	}
	return bytes.Count(data[:i], []byte("\n")) + 1
}
