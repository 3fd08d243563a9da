package memory

import (
	"math"
	"sort"

	"github.com/curator-dev/curator/internal/refuse"
)

// PatchSets are the changes a patch asks for, as an update takes them: a
// patch is a JSON object of keys to set (an MCP client's
// update_long_term), where a nested object is a patch of its own keys
// (importance_factors: {proximity: 0.8} sets one factor, as the dotted key
// importance_factors.proximity does), never a replacement of the whole
// map. A JSON number that is whole is an int, as in YAML. The sets are in
// key order; an empty patch is a wrong request.
func PatchSets(patch map[string]any) ([]Set, error) {
	if len(patch) == 0 {
		return nil, refuse.Requestf("patch is empty")
	}
	var sets []Set
	flatten("", patch, &sets)
	sort.SliceStable(sets, func(i, j int) bool { return sets[i].Key < sets[j].Key })
	return sets, nil
}

// flatten turns a patch of nested maps into dotted keys.
func flatten(prefix string, patch map[string]any, out *[]Set) {
	for k, v := range patch {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		if m, ok := v.(map[string]any); ok && len(m) > 0 {
			flatten(key, m, out)
			continue
		}
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			v = int(f)
		}
		*out = append(*out, Set{Key: key, Value: v})
	}
}
