package mdstore

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// PriorityTiers are the numbers a bullet priority's tier names stand for
// (the procedure's tiers: high 8–10, medium 5–7, low 1–4).
var PriorityTiers = map[string]int{"high": 9, "medium": 5, "low": 2}

// PriorityWant is what a priority is, as the user is told it.
const PriorityWant = "a whole number 1–10 or high, medium or low"

// PriorityTier is the tier a priority falls in: high (8–10), medium (5–7)
// or low (1–4).
func PriorityTier(p int) string {
	switch {
	case p >= 8:
		return "high"
	case p >= 5:
		return "medium"
	}
	return "low"
}

// ParsePriority reads a priority given as text: a whole number or a tier
// name (any case).
func ParsePriority(s string) (int, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if t, ok := PriorityTiers[s]; ok {
		return t, nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n, nil
	}
	return 0, fmt.Errorf("priority %q: want %s", s, PriorityWant)
}

// Priority is a lesson's priority: a number, or a tier name when read.
type Priority int

// UnmarshalYAML reads a number or a tier name.
func (p *Priority) UnmarshalYAML(n *yaml.Node) error {
	v, err := ParsePriority(n.Value)
	if err != nil {
		return err
	}
	*p = Priority(v)
	return nil
}

// UnmarshalJSON reads a number or a tier name.
func (p *Priority) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n int
		if err := json.Unmarshal(b, &n); err != nil {
			return err
		}
		*p = Priority(n)
		return nil
	}
	v, err := ParsePriority(s)
	if err != nil {
		return err
	}
	*p = Priority(v)
	return nil
}

// isPriority tells a YAML value a priority can be read from.
func isPriority(n *yaml.Node) bool {
	if isNumber(n) {
		return true
	}
	_, ok := PriorityTiers[strings.ToLower(strings.TrimSpace(n.Value))]
	return ok && n.Kind == yaml.ScalarNode
}
