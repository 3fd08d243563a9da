package history

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Value formats a key's value for one line of text: "(none)" when absent,
// scalars as written, lists and maps as compact JSON.
func Value(v any) string {
	switch x := v.(type) {
	case nil:
		return "(none)"
	case string:
		if x == "" || strings.ContainsAny(x, " \t\n\"") {
			return strconv.Quote(x)
		}
		return x
	case time.Time:
		return x.Format(time.RFC3339)
	case int, int64, uint64, float64, bool:
		return fmt.Sprint(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }

// SortedKeys are a change's key names in order.
func SortedKeys(keys map[string]KeyChange) []string {
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
