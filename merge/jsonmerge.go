package merge

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// jsonRules says how the fields of one kind of JSON file merge. Patterns
// are key paths with "[]" for any array element, e.g. "phases[].artifacts".
type jsonRules struct {
	later map[string]bool   // timestamps: the later wins
	keyed map[string]string // arrays of objects matched by this field
	union map[string]bool   // arrays merged as unions
}

// memoryStateRules merge memory/state.json: the watermark is the later.
// last_run, a run id, starts with its UTC time, so the later is the run
// of the later pass.
var memoryStateRules = jsonRules{later: map[string]bool{"watermark": true, "last_run": true}}

// pipelineStateRules merge pipelines/pipeline-state-*.json.
var pipelineStateRules = jsonRules{
	later: map[string]bool{"updated_at": true, "accumulated_context.artifacts_created[].timestamp": true},
	keyed: map[string]string{
		"phases":             "phase_number",
		"phases[].artifacts": "path",
		"phases[].steps":     "step_number",
		// {path, phase, timestamp} objects (older states: path strings)
		"accumulated_context.artifacts_created": "path",
	},
	union: map[string]bool{
		"phases[].blockers":                  true,
		"accumulated_context.key_decisions":  true,
		"accumulated_context.files_modified": true,
		"accumulated_context.deviations":     true,
	},
}

func mergeMemoryState(path string, base, ours, theirs []byte) (Result, error) {
	return mergeJSON(path, base, ours, theirs, memoryStateRules)
}

func mergePipelineState(path string, base, ours, theirs []byte) (Result, error) {
	return mergeJSON(path, base, ours, theirs, pipelineStateRules)
}

func mergePlainJSON(path string, base, ours, theirs []byte) (Result, error) {
	return mergeJSON(path, base, ours, theirs, jsonRules{})
}

// mergeJSON merges three JSON documents field by field. Theirs' value of a
// conflicting field is kept in the top-level object "merge_conflicts" (field
// path → value), so the file stays valid JSON.
func mergeJSON(path string, base, ours, theirs []byte, r jsonRules) (Result, error) {
	var vs [3]*value
	for i, s := range []struct {
		name string
		data []byte
	}{{"base", base}, {"ours", ours}, {"theirs", theirs}} {
		v, err := parseJSON(s.data)
		if err != nil {
			return Result{}, &SideError{Path: path, Side: s.name, Err: err}
		}
		vs[i] = v
	}
	m := &jsonMerge{rules: r}
	out := m.merge(vs[0], vs[1], vs[2], "", "")
	if len(m.conflicts) > 0 && out != nil && out.obj != nil {
		aside, ok := out.obj[conflictsKey]
		if !ok || aside.obj == nil {
			aside = &value{obj: map[string]*value{}}
			out.keys = append(out.keys, conflictsKey)
			out.obj[conflictsKey] = aside
		}
		for _, c := range m.conflicts {
			if _, dup := aside.obj[c.Key]; !dup {
				aside.keys = append(aside.keys, c.Key)
			}
			aside.obj[c.Key] = m.theirs[c.Key]
		}
	}
	cs := m.conflicts
	for i := range cs {
		cs[i].Path = path
		if out == nil || out.obj == nil {
			// No object to keep merge_conflicts in: theirs is not recorded.
			cs[i].Kind, cs[i].Ours, cs[i].Theirs = WholeConflict, "(changed)", "(changed differently)"
		}
	}
	return Result{Data: render(out, bytes.Contains(ours, []byte("\r\n")), cs), Conflicts: cs}, nil
}

// jsonMerge collects the conflicts of one JSON merge.
type jsonMerge struct {
	rules     jsonRules
	conflicts []Conflict
	theirs    map[string]*value
}

// merge joins one field; pat is its pattern path, at its path in the result.
func (m *jsonMerge) merge(b, o, t *value, pat, at string) *value {
	switch {
	case o.canon() == t.canon(), b.canon() == t.canon():
		return o
	case b.canon() == o.canon():
		return t
	case o == nil:
		return t
	case t == nil:
		return o
	}
	if m.rules.later[pat] {
		if ot, ok := jsonTime(o); ok {
			if tt, ok := jsonTime(t); ok {
				if tt.After(ot) {
					return t
				}
				return o
			}
		}
	}
	switch {
	case o.obj != nil && t.obj != nil:
		if b != nil && b.obj == nil {
			b = nil
		}
		return m.object(b, o, t, pat, at)
	case o.isArr && t.isArr && m.rules.keyed[pat] != "":
		if b != nil && !b.isArr {
			b = nil
		}
		return m.keyedArray(b, o, t, m.rules.keyed[pat], pat, at)
	case o.isArr && t.isArr && m.rules.union[pat]:
		if b != nil && !b.isArr {
			b = nil
		}
		return unionArray(b, o, t)
	}
	m.conflicts = append(m.conflicts, Conflict{Kind: ValueConflict, Key: at, Ours: o.canon(), Theirs: t.canon()})
	if m.theirs == nil {
		m.theirs = map[string]*value{}
	}
	m.theirs[at] = t
	return o
}

func (m *jsonMerge) object(b, o, t *value, pat, at string) *value {
	field := func(v *value, k string) *value {
		if v == nil {
			return nil
		}
		return v.obj[k]
	}
	out := &value{obj: map[string]*value{}}
	keys := append([]string(nil), o.keys...)
	for _, k := range t.keys {
		if _, ok := o.obj[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if v := m.merge(field(b, k), field(o, k), field(t, k), joinPath(pat, k), joinPath(at, k)); v != nil {
			out.keys = append(out.keys, k)
			out.obj[k] = v
		}
	}
	return out
}

// keyedArray merges arrays of objects matched by one field: ours' order,
// then theirs' additions; an element removed on one side and unchanged on
// the other is removed.
func (m *jsonMerge) keyedArray(b, o, t *value, key, pat, at string) *value {
	index := func(v *value) (map[string]*value, []string) {
		idx := map[string]*value{}
		var order []string
		if v == nil {
			return idx, nil
		}
		for _, e := range v.arr {
			k := fmt.Sprintf("#%d", len(order))
			switch {
			case e.obj != nil && e.obj[key] != nil:
				k = e.obj[key].canon()
			case e.obj == nil && !e.isArr:
				k = e.canon() // a plain value is its own key
			}
			if _, dup := idx[k]; !dup {
				order = append(order, k)
			}
			idx[k] = e
		}
		return idx, order
	}
	bi, _ := index(b)
	oi, oo := index(o)
	ti, to := index(t)
	keys := oo
	for _, k := range to {
		if _, ok := oi[k]; !ok {
			keys = append(keys, k)
		}
	}
	out := &value{isArr: true}
	for _, k := range keys {
		if v := m.merge(bi[k], oi[k], ti[k], pat+"[]", fmt.Sprintf("%s[%d]", at, len(out.arr))); v != nil {
			out.arr = append(out.arr, v)
		}
	}
	return out
}

// unionArray keeps the base elements neither side removed, then ours'
// additions, then theirs', each once.
func unionArray(b, o, t *value) *value {
	set := func(v *value) map[string]bool {
		s := map[string]bool{}
		if v != nil {
			for _, e := range v.arr {
				s[e.canon()] = true
			}
		}
		return s
	}
	inB, inO, inT := set(b), set(o), set(t)
	out := &value{isArr: true}
	seen := map[string]bool{}
	add := func(e *value) {
		if c := e.canon(); !seen[c] {
			seen[c] = true
			out.arr = append(out.arr, e)
		}
	}
	if b != nil {
		for _, e := range b.arr {
			if inO[e.canon()] && inT[e.canon()] {
				add(e)
			}
		}
	}
	for _, e := range o.arr {
		if !inB[e.canon()] || inT[e.canon()] {
			add(e)
		}
	}
	for _, e := range t.arr {
		if !inB[e.canon()] {
			add(e)
		}
	}
	return out
}

// jsonTime reads a JSON string holding an RFC 3339 time, or a run id
// (20261130T140545Z-8ca213), whose time is its first part.
func jsonTime(v *value) (time.Time, bool) {
	if v == nil || len(v.raw) < 2 || v.raw[0] != '"' {
		return time.Time{}, false
	}
	s := string(v.raw[1 : len(v.raw)-1])
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	if i := strings.IndexByte(s, '-'); i > 0 {
		if t, err := time.Parse("20060102T150405Z", s[:i]); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
