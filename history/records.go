package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"path"
	"strings"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/mdstore/layout"
)

// Record kinds, from the folder a file is in.
const (
	RecordMemory     = "memory"
	RecordBullet     = "bullet"
	RecordReflection = "reflection"
	RecordPipeline   = "pipeline"
	RecordBrief      = "brief"
)

// record is one version of one record file: its frontmatter (or JSON) keys
// and body, or why it does not parse.
type record struct {
	kind   string
	id     string
	path   string
	folder string // the store-relative folder below the kind's root
	keys   map[string]any
	body   string
	text   string // the whole file, with LF line ends
	err    string // not "" when the file does not parse
	line   int    // where it does not parse (0: unknown)
}

// RecordKind is the kind of record a store-relative path holds, "" for a
// file that holds none.
func RecordKind(p string) string {
	switch k := layout.KindOf(p); k {
	case layout.Memory, layout.Bullet, layout.Reflection, layout.Pipeline, layout.Brief:
		return string(k)
	}
	return ""
}

// folderOf is the folder that places a record: inbox, confirmed/fact and
// trash for memories, bullets/<category> and archive/<category> for bullets,
// pending and merged for reflections.
func folderOf(kind, p string) string {
	dir := path.Dir(p)
	switch kind {
	case RecordMemory:
		return strings.TrimPrefix(dir, "memory/")
	case RecordBullet:
		return strings.TrimPrefix(dir, "context/")
	case RecordReflection:
		return strings.TrimPrefix(dir, "context/reflections/")
	}
	return dir
}

// parseRecord reads one version of the file at p (p holds a record kind).
func parseRecord(p string, data []byte) *record {
	kind := RecordKind(p)
	text := string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	base := path.Base(p)
	r := &record{kind: kind, path: p, folder: folderOf(kind, p), text: text, id: strings.TrimSuffix(base, path.Ext(base))}
	switch {
	case kind == RecordPipeline:
		r.id = strings.TrimPrefix(r.id, "pipeline-state-")
		r.parseJSON()
	case kind == RecordBrief:
		r.id = strings.TrimSuffix(strings.TrimPrefix(p, "pipelines/context-briefs/"), ".md")
		r.body = strings.TrimSpace(text)
	case path.Ext(p) == ".json":
		r.parseJSON()
	default:
		r.parseMarkdown()
	}
	if id, ok := r.keys["id"].(string); ok && id != "" && kind != RecordPipeline {
		r.id = id
	}
	return r
}

func (r *record) parseMarkdown() {
	d, err := frontmatter.Parse([]byte(r.text))
	if err == nil {
		err = d.Decode(&r.keys)
	}
	if err != nil {
		r.fail(err)
		return
	}
	if r.keys == nil {
		r.keys = map[string]any{}
	}
	r.body = strings.TrimSpace(string(d.Body()))
}

func (r *record) parseJSON() {
	if err := json.Unmarshal([]byte(r.text), &r.keys); err != nil {
		r.fail(err)
		if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
			r.line = 1 + strings.Count(r.text[:min(int(se.Offset), len(r.text))], "\n")
		}
		return
	}
	if r.keys == nil {
		r.keys = map[string]any{}
	}
}

func (r *record) fail(err error) {
	r.err = err.Error()
	var fe *frontmatter.Error
	if errors.As(err, &fe) {
		r.err, r.line = fe.Msg, fe.Line
	}
}

// strs is a key's value as a list of strings.
func (r *record) strs(key string) []string {
	var out []string
	switch v := r.keys[key].(type) {
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok && s != "" {
				out = append(out, s)
			}
		}
	case string:
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// number is a key's numeric value and whether it has one.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
