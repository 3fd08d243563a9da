package mdstore

import (
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Numbers are numbers: YAML decoding into an int would truncate 4.5 to 4
// and a float field would take .nan or .inf. Each record type checks its
// numeric keys on the YAML nodes before decoding, so such a value is
// invalid input, named with its line, and never scored or truncated.

// Integer keys of each record (top level of the mapping being decoded).
var (
	memoryInts = []string{"content_confidence"}
	bulletInts = []string{"priority", "helpful_count", "harmful_count", "usage_count", "version"}
	lessonInts = []string{"priority"}
	// curated_lessons is a list of integers.
	reflectionIntLists = []string{"curated_lessons"}
	bulletFloats       = []string{"confidence"}
	lessonFloats       = []string{"confidence"}
)

// numberError is a bad number, as a YAML type error so that the document's
// decoder reports it with the file line.
func numberError(n *yaml.Node, key, format string, a ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %s: %s", n.Line, key, fmt.Sprintf(format, a...))}}
}

// checkIntNode accepts an integer, or a float whose value is a whole
// number (3.0); it refuses 4.5, .nan, .inf and -.inf.
func checkIntNode(key string, n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return nil // the decoder reports the wrong kind
	}
	switch n.ShortTag() {
	case "!!float":
		f, err := strconv.ParseFloat(yamlFloat(n.Value), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
			return numberError(n, key, "%s is not a whole number", n.Value)
		}
	}
	return nil
}

// checkFloatNode refuses .nan, .inf and -.inf.
func checkFloatNode(key string, n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!float" {
		return nil
	}
	f, err := strconv.ParseFloat(yamlFloat(n.Value), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return numberError(n, key, "%s is not a finite number", n.Value)
	}
	return nil
}

// yamlFloat turns YAML's spellings of the special floats into Go's.
func yamlFloat(v string) string {
	switch v {
	case ".nan", ".NaN", ".NAN":
		return "NaN"
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return "+Inf"
	case "-.inf", "-.Inf", "-.INF":
		return "-Inf"
	}
	return v
}

// checkNumbers checks the numeric keys of a mapping node.
func checkNumbers(n *yaml.Node, ints, intLists, floats []string) error {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	var errs []string
	add := func(err error) {
		if te, ok := err.(*yaml.TypeError); ok {
			errs = append(errs, te.Errors...)
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		for _, name := range ints {
			if k == name {
				add(checkIntNode(k, v))
			}
		}
		for _, name := range floats {
			if k == name {
				add(checkFloatNode(k, v))
			}
		}
		for _, name := range intLists {
			if k == name && v.Kind == yaml.SequenceNode {
				for _, e := range v.Content {
					add(checkIntNode(k, e))
				}
			}
		}
	}
	if len(errs) > 0 {
		return &yaml.TypeError{Errors: errs}
	}
	return nil
}

// UnmarshalYAML decodes a memory after checking its numbers.
func (m *Memory) UnmarshalYAML(n *yaml.Node) error {
	if err := checkNumbers(n, memoryInts, nil, nil); err != nil {
		return err
	}
	type plain Memory
	return n.Decode((*plain)(m))
}

// UnmarshalYAML decodes a bullet after checking its numbers.
func (b *Bullet) UnmarshalYAML(n *yaml.Node) error {
	if err := checkNumbers(n, bulletInts, nil, bulletFloats); err != nil {
		return err
	}
	type plain Bullet
	return n.Decode((*plain)(b))
}

// UnmarshalYAML decodes a lesson after checking its numbers.
func (l *Lesson) UnmarshalYAML(n *yaml.Node) error {
	if err := checkNumbers(n, lessonInts, nil, lessonFloats); err != nil {
		return err
	}
	type plain Lesson
	return n.Decode((*plain)(l))
}

// UnmarshalYAML decodes a reflection after checking the shape of its
// fields and its numbers.
func (r *Reflection) UnmarshalYAML(n *yaml.Node) error {
	if err := checkReflectionShape(n); err != nil {
		return err.yamlError()
	}
	if err := checkNumbers(n, nil, reflectionIntLists, nil); err != nil {
		return err
	}
	type plain Reflection
	return n.Decode((*plain)(r))
}
