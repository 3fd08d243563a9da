package mdstore

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// JSON lets an object give a key twice and keeps the last; which one was
// meant is not for curator to guess. JSON text is read as YAML, which
// keeps the lines, to find such a key.

// KeyGivenTwice refuses JSON text that gives a key twice in one object, at
// any depth. The error names the line, the key by its path ("skills",
// "skills[2].content") and the line it was first given on. Text that YAML
// cannot read is left to the JSON decoder to report.
func KeyGivenTwice(data []byte) error {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	if err := givenTwiceAnywhere(&doc, ""); err != nil {
		return fmt.Errorf("line %d: %s", err.line, err.msg)
	}
	return nil
}

// givenTwiceAnywhere finds a key given twice in n or in any mapping inside
// it; prefix names n in messages.
func givenTwiceAnywhere(n *yaml.Node, prefix string) *shapeError {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := givenTwiceAnywhere(c, prefix); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		if err := givenTwice(n, prefix); err != nil {
			return err
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := givenTwiceAnywhere(n.Content[i+1], prefix+n.Content[i].Value+"."); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for j, e := range n.Content {
			if err := givenTwiceAnywhere(e, fmt.Sprintf("%s[%d].", trimDot(prefix), j)); err != nil {
				return err
			}
		}
	}
	return nil
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

func trimDot(prefix string) string {
	if len(prefix) > 0 && prefix[len(prefix)-1] == '.' {
		return prefix[:len(prefix)-1]
	}
	return prefix
}
