package merge

import (
	"fmt"

	"github.com/curator-dev/curator/frontmatter"
	"go.yaml.in/yaml/v3"
)

// duplicateKeys refuses a frontmatter that sets one key twice in a mapping
// (at any depth): YAML readers disagree on which value counts, and a merge
// would keep one and lose the other. The error names the file line of the
// second key.
func duplicateKeys(d *frontmatter.Document, root *yaml.Node) error {
	if len(root.Content) == 0 {
		return nil
	}
	// Node lines count from the frontmatter's first line; the document
	// knows the file line of the first key (asked only for an error: it
	// reads the frontmatter again).
	offset := func() int { return d.Line(root.Content[0].Value) - root.Content[0].Line }
	var walk func(n *yaml.Node) error
	walk = func(n *yaml.Node) error {
		if n.Kind == yaml.MappingNode {
			seen := map[string]*yaml.Node{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind == yaml.ScalarNode && k.Value != "<<" {
					if first, dup := seen[k.Value]; dup {
						off := offset()
						return &frontmatter.Error{Line: k.Line + off, Msg: fmt.Sprintf("key %q is set twice (first at line %d)", k.Value, first.Line+off)}
					}
					seen[k.Value] = k
				}
			}
		}
		for _, c := range n.Content {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root)
}
