package merge

import (
	"math"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"
)

// Frontmatter keys with their own merge rule (SPEC §3.6).
var (
	counterKeys   = map[string]bool{"helpful_count": true, "harmful_count": true, "usage_count": true}
	timestampKeys = map[string]bool{"updated_at": true, "last_used_at": true}
	listKeys      = map[string]bool{"tags": true, "merged_from": true, "source_reflections": true, "source_cases": true}
)

// mergeKey merges one frontmatter key. A nil node is an absent key; the
// result nil means the key is absent from the merge. conflict reports two
// different new values, in which case the caller keeps ours.
func mergeKey(k string, b, o, t *yaml.Node) (v *yaml.Node, conflict bool) {
	if o != nil && t != nil && !sameNode(b, o) && !sameNode(b, t) {
		// Both sides moved a counter: both increments count, even when
		// they happen to give the same number.
		switch {
		case counterKeys[k]:
			if bi, oi, ti, ok := ints(b, o, t); ok {
				return intNode(oi + ti - bi), false
			}
		case k == "confidence":
			if bf, of, tf, ok := floats(b, o, t); ok {
				c := math.Round((of+tf-bf)*1e9) / 1e9
				return floatNode(min(max(c, 0), 1)), false
			}
		}
	}
	switch {
	case sameNode(o, t), sameNode(b, t):
		return o, false
	case sameNode(b, o):
		return t, false
	case o == nil:
		return t, false // deleted here, edited there: the edit is kept
	case t == nil:
		return o, false
	}
	switch {
	case timestampKeys[k]:
		ot, okO := timeOf(o)
		tt, okT := timeOf(t)
		if okO && okT {
			if tt.After(ot) {
				return t, false
			}
			return o, false
		}
	case listKeys[k]:
		if v, ok := unionList(b, o, t); ok {
			return v, false
		}
	}
	if v, ok := sameDecision(o, t); ok {
		return v, false
	}
	return o, true
}

// sameDecision settles a decision record (a mapping with an "at" time, such
// as a memory's trashed: {at, reason, run, score, from}) that two runs wrote
// with the same decision: when the mappings differ only in at and run, the
// earlier record is kept, since that run decided first.
func sameDecision(o, t *yaml.Node) (*yaml.Node, bool) {
	if o.Kind != yaml.MappingNode || t.Kind != yaml.MappingNode {
		return nil, false
	}
	rest := func(n *yaml.Node) (map[string]string, *yaml.Node) {
		m := map[string]string{}
		var at *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k := n.Content[i].Value; k {
			case "at":
				at = n.Content[i+1]
			case "run":
			default:
				m[k] = scalarText(n.Content[i+1])
			}
		}
		return m, at
	}
	om, oat := rest(o)
	tm, tat := rest(t)
	if oat == nil || tat == nil || len(om) != len(tm) {
		return nil, false
	}
	for k, v := range om {
		if tv, ok := tm[k]; !ok || tv != v {
			return nil, false
		}
	}
	ot, okO := timeOf(oat)
	tt, okT := timeOf(tat)
	if !okO || !okT {
		return nil, false
	}
	if tt.Before(ot) {
		return t, true
	}
	return o, true
}

// ints reads three counters; an absent base counts as 0.
func ints(b, o, t *yaml.Node) (int, int, int, bool) {
	var bi, oi, ti int
	if b != nil && b.Decode(&bi) != nil {
		return 0, 0, 0, false
	}
	if o.Decode(&oi) != nil || t.Decode(&ti) != nil {
		return 0, 0, 0, false
	}
	return bi, oi, ti, true
}

// floats reads three confidences; an absent base cannot be merged.
func floats(b, o, t *yaml.Node) (float64, float64, float64, bool) {
	var bf, of, tf float64
	if b == nil || b.Decode(&bf) != nil || o.Decode(&of) != nil || t.Decode(&tf) != nil {
		return 0, 0, 0, false
	}
	return bf, of, tf, true
}

func intNode(n int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(n)}
}

func floatNode(f float64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'f', -1, 64)}
}

// timeOf reads a timestamp scalar, quoted or not.
func timeOf(n *yaml.Node) (time.Time, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, n.Value)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// unionList merges sequences of scalars: the base order without the items
// either side removed, then ours' additions, then theirs', each once.
func unionList(b, o, t *yaml.Node) (*yaml.Node, bool) {
	for _, n := range []*yaml.Node{b, o, t} {
		if n != nil && !scalarSeq(n) {
			return nil, false
		}
	}
	inB, inO, inT := items(b), items(o), items(t)
	out := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: o.Style}
	seen := map[string]bool{}
	add := func(n *yaml.Node) {
		if !seen[n.Value] {
			seen[n.Value] = true
			out.Content = append(out.Content, n)
		}
	}
	if b != nil {
		for _, n := range b.Content {
			if inO[n.Value] && inT[n.Value] {
				add(n)
			}
		}
	}
	for _, side := range []*yaml.Node{o, t} {
		for _, n := range side.Content {
			if !inB[n.Value] {
				add(n)
			}
		}
	}
	return out, true
}

// scalarSeq reports whether n is a sequence of scalars (an empty value counts
// as an empty list).
func scalarSeq(n *yaml.Node) bool {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return true
	}
	if n.Kind != yaml.SequenceNode {
		return false
	}
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			return false
		}
	}
	return true
}

func items(n *yaml.Node) map[string]bool {
	m := map[string]bool{}
	if n != nil {
		for _, c := range n.Content {
			m[c.Value] = true
		}
	}
	return m
}
