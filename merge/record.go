package merge

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/curator-dev/curator/frontmatter"
	"go.yaml.in/yaml/v3"
)

// conflictsKey is the frontmatter key that keeps theirs' value of each key
// whose two sides could not be joined, for a reviewer.
const conflictsKey = "merge_conflicts"

// checkRecord parses a markdown record's frontmatter.
func checkRecord(rd *reads, data []byte) error {
	_, err := rd.side(data)
	return err
}

// side is one version of a record: its document, its frontmatter mapping
// and each key's value node.
type side struct {
	doc  *frontmatter.Document
	root *yaml.Node // the frontmatter mapping
	keys []string
	vals map[string]*yaml.Node
}

func readSide(data []byte) (*side, error) {
	d, err := frontmatter.Parse(data)
	if err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := d.Decode(&root); err != nil {
		return nil, err
	}
	if err := duplicateKeys(d, &root); err != nil {
		return nil, err
	}
	s := &side{doc: d, root: &root, vals: map[string]*yaml.Node{}}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i].Value
		s.keys = append(s.keys, k)
		s.vals[k] = root.Content[i+1]
	}
	return s, nil
}

// mergeRecord merges a markdown record: frontmatter key by key, body by lines.
func mergeRecord(path string, base, ours, theirs []byte) (Result, error) {
	b, err := readSide(base)
	if err != nil {
		return Result{}, &SideError{Path: path, Side: "base", Err: err}
	}
	o, err := readSide(ours)
	if err != nil {
		return Result{}, &SideError{Path: path, Side: "ours", Err: err}
	}
	t, err := readSide(theirs)
	if err != nil {
		return Result{}, &SideError{Path: path, Side: "theirs", Err: err}
	}
	out, err := frontmatter.Split(ours)
	if err != nil {
		return Result{}, err
	}
	var sets []frontmatter.KV
	var deletes []string
	var conflicts []Conflict
	var aside []*yaml.Node // key, theirs value pairs for merge_conflicts
	keys := append([]string(nil), o.keys...)
	for _, k := range t.keys {
		if _, ok := o.vals[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if k == conflictsKey {
			continue
		}
		bv, ov, tv := b.vals[k], o.vals[k], t.vals[k]
		v, conflict := mergeKey(k, bv, ov, tv)
		switch {
		case conflict:
			conflicts = append(conflicts, Conflict{Path: path, Kind: ValueConflict, Key: k, Ours: scalarText(ov), Theirs: scalarText(tv)})
			aside = append(aside, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, tv)
		case v == nil && ov != nil:
			deletes = append(deletes, k)
		case v != nil && !sameNode(v, ov):
			sets = append(sets, frontmatter.KV{Key: k, Value: v})
		}
	}
	if v := asideValue(b.vals[conflictsKey], o.vals[conflictsKey], t.vals[conflictsKey], aside); v != nil {
		sets = append(sets, frontmatter.KV{Key: conflictsKey, Value: v})
	}
	for _, k := range deletes {
		if err := out.Delete(k); err != nil {
			return Result{}, err
		}
	}
	if len(sets) > 0 {
		if err := out.SetAll(sets...); err != nil {
			return Result{}, fmt.Errorf("%s: %w", path, err)
		}
	}
	bodyStart := len(out.Bytes()) - len(out.Body())
	body, bodyConflicts := mergeBody(b.doc.Body(), o.doc.Body(), t.doc.Body())
	out.SetBody(body)
	data := out.Bytes()
	// The result is checked once more: it must stay a valid record.
	final, err := frontmatter.Parse(data)
	if err != nil {
		return Result{}, fmt.Errorf("%s: merged frontmatter does not parse: %w", path, err)
	}
	for i := range conflicts {
		conflicts[i].Line = final.Line(conflicts[i].Key)
	}
	startLine := bytes.Count(data[:bodyStart], []byte("\n")) + 1
	for _, c := range bodyConflicts {
		c.Path, c.Line = path, startLine+c.Line
		conflicts = append(conflicts, c)
	}
	return Result{Data: data, Conflicts: conflicts}, nil
}

// mergeBody takes the one side that changed, or merges both by lines.
func mergeBody(base, ours, theirs []byte) ([]byte, []Conflict) {
	switch {
	case bytes.Equal(base, theirs), bytes.Equal(ours, theirs):
		return ours, nil
	case bytes.Equal(base, ours):
		return theirs, nil
	}
	return textMerge(base, ours, theirs, true)
}

// asideValue is the merged merge_conflicts mapping: the entries both sides
// already had (by the one-side rule) followed by this merge's new ones.
func asideValue(b, o, t *yaml.Node, added []*yaml.Node) *yaml.Node {
	cur, conflict := mergeKey(conflictsKey, b, o, t)
	if conflict {
		cur = o
	}
	if len(added) == 0 {
		if sameNode(cur, o) {
			return nil
		}
		return cur
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if cur != nil && cur.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(cur.Content); i += 2 {
			if !hasKey(added, cur.Content[i].Value) {
				m.Content = append(m.Content, cur.Content[i], cur.Content[i+1])
			}
		}
	}
	m.Content = append(m.Content, added...)
	return m
}

func hasKey(pairs []*yaml.Node, k string) bool {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i].Value == k {
			return true
		}
	}
	return false
}

// sameNode reports whether two value nodes hold the same data.
func sameNode(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.DeepEqual(decoded(a), decoded(b))
}

func decoded(n *yaml.Node) any {
	var v any
	if err := n.Decode(&v); err != nil {
		return n.Value
	}
	return v
}

// scalarText renders a value for a Conflict: the scalar itself, or YAML.
func scalarText(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	out, err := yaml.Marshal(n)
	if err != nil {
		return n.Value
	}
	return string(bytes.TrimSpace(out))
}
