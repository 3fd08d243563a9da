package mdstore

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// A reflection is often written by hand or by an agent guessing its
// format. Before decoding, each field it has is checked against the shape
// the field holds, so that a wrong guess is told, in the user's words, the
// field, what it wants and what it got ("helpful_bullets: want a list of
// bullet ids, got a string"), never the decoder's Go types.

// shapeKind is what a field holds.
type shapeKind int

const (
	shapeText      shapeKind = iota // one scalar, read as text
	shapeTime                       // a time (RFC 3339)
	shapeNumber                     // a number
	shapeWhole                      // a whole number
	shapePriority                   // a whole number or a tier name
	shapeTextList                   // a list of scalars
	shapeWholeList                  // a list of whole numbers
	shapeLessons                    // a list of lessons
)

// fieldShape is a field's kind and how its shape is told to the user.
type fieldShape struct {
	kind shapeKind
	want string
	// item is how one item of a list is told.
	item string
}

// lessonFields is what a lesson holds, as the user is told it.
const lessonFields = "content, and optionally category, confidence, tags, priority"

var reflectionShapes = map[string]fieldShape{
	"id":              {kind: shapeText, want: "a reflection id (text)"},
	"curator_status":  {kind: shapeText, want: "pending, merged or rejected"},
	"created_at":      {kind: shapeTime, want: "a time such as 2026-11-20T10:00:00Z"},
	"agent":           {kind: shapeText, want: "text"},
	"task":            {kind: shapeText, want: "text"},
	"lessons":         {kind: shapeLessons, want: "a list of lessons (each with " + lessonFields + ")", item: "a lesson (" + lessonFields + ")"},
	"helpful_bullets": {kind: shapeTextList, want: "a list of bullet ids", item: "a bullet id"},
	"harmful_bullets": {kind: shapeTextList, want: "a list of bullet ids", item: "a bullet id"},
	"curated_lessons": {kind: shapeWholeList, want: "a list of lesson numbers", item: "a lesson number"},
}

var lessonShapes = map[string]fieldShape{
	"content":    {kind: shapeText, want: "text"},
	"category":   {kind: shapeText, want: "a category name such as strategy"},
	"confidence": {kind: shapeNumber, want: "a number in [0,1]"},
	"tags":       {kind: shapeTextList, want: "a list of tags", item: "a tag"},
	"priority":   {kind: shapePriority, want: PriorityWant},
}

// shapeError is a field whose value has the wrong shape, at a line of the
// YAML (or JSON) text.
type shapeError struct {
	line int
	msg  string
}

func (e *shapeError) Error() string { return e.msg }

// yamlError is the error as a YAML type error ("line N: …"), so that the
// document's decoder reports it with the file line.
func (e *shapeError) yamlError() error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %s", e.line, e.msg)}}
}

// checkJSONShape checks a JSON reflection's fields against their shapes
// (JSON is read as YAML, which keeps the lines), and that it gives no key
// twice (as JSON reads keys). Text that YAML cannot read is left to the
// JSON decoder to report.
func checkJSONShape(name string, data []byte) error {
	if err := keyGivenTwice(data); err != nil {
		return &InvalidFile{Path: name, Line: err.line, Msg: err.msg}
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	if err := checkReflectionShape(&doc); err != nil {
		return &InvalidFile{Path: name, Line: err.line, Msg: err.msg}
	}
	return nil
}

// checkReflectionShape checks the fields of a reflection's YAML (or JSON
// read as YAML) against their shapes.
func checkReflectionShape(n *yaml.Node) *shapeError {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		if isNull(n) {
			return nil
		}
		return wrongShape(n, "", "the reflection's fields (key: value lines)")
	}
	return checkFields(n, "", reflectionShapes)
}

// checkFields checks the known keys of a mapping against shapes; prefix
// names the mapping in messages ("lessons[0].").
func checkFields(n *yaml.Node, prefix string, shapes map[string]fieldShape) *shapeError {
	if err := givenTwice(n, prefix); err != nil {
		return err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, resolve(n.Content[i+1])
		s, ok := shapes[k]
		if !ok || isNull(v) {
			continue
		}
		if err := checkShape(v, prefix+k, s); err != nil {
			return err
		}
	}
	return nil
}

// checkShape checks one value against its field's shape.
func checkShape(v *yaml.Node, key string, s fieldShape) *shapeError {
	if (s.kind == shapeNumber || s.kind == shapeWhole || s.kind == shapePriority) && overflows(v) ||
		(s.kind == shapeWhole || s.kind == shapePriority) && outsideInt(v) {
		return tooLargeShape(v, key)
	}
	switch s.kind {
	case shapeText:
		if v.Kind != yaml.ScalarNode {
			return wrongShape(v, key, s.want)
		}
	case shapeTime:
		var t time.Time
		if v.Kind != yaml.ScalarNode || v.Decode(&t) != nil {
			return wrongShape(v, key, s.want)
		}
	case shapeNumber, shapeWhole:
		if !isNumber(v) {
			return wrongShape(v, key, s.want)
		}
	case shapePriority:
		if !isPriority(v) {
			return wrongShape(v, key, s.want)
		}
	case shapeTextList, shapeWholeList, shapeLessons:
		if v.Kind != yaml.SequenceNode {
			return wrongShape(v, key, s.want)
		}
		for j, e := range v.Content {
			e = resolve(e)
			item := fmt.Sprintf("%s[%d]", key, j)
			switch {
			case s.kind == shapeWholeList && (overflows(e) || outsideInt(e)):
				return tooLargeShape(e, item)
			case s.kind == shapeLessons && e.Kind == yaml.MappingNode:
				if err := checkFields(e, item+".", lessonShapes); err != nil {
					return err
				}
			case s.kind == shapeTextList && e.Kind == yaml.ScalarNode && !isNull(e),
				s.kind == shapeWholeList && isNumber(e):
			default:
				return wrongShape(e, item, s.item)
			}
		}
	}
	return nil
}

// wrongShape says what a field wants and what it got, with its line.
func wrongShape(v *yaml.Node, key, want string) *shapeError {
	msg := fmt.Sprintf("want %s, got %s", want, described(v))
	if key != "" {
		msg = key + ": " + msg
	}
	return &shapeError{line: v.Line, msg: msg}
}

// tooLargeShape is a number too large to hold, which YAML reads as text:
// told as a number out of range, not as a string.
func tooLargeShape(v *yaml.Node, key string) *shapeError {
	return &shapeError{line: v.Line, msg: key + ": " + fmt.Sprintf(tooLarge, v.Value)}
}

// described is a value's kind in the user's words, with a short scalar.
func described(v *yaml.Node) string {
	switch v.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a map (key: value lines)"
	}
	text := v.Value
	if r := []rune(text); len(r) > 40 {
		text = string(r[:40]) + "…"
	}
	switch v.ShortTag() {
	case "!!int", "!!float":
		return "the number " + text
	case "!!bool":
		return "true/false (" + text + ")"
	case "!!null":
		return "nothing"
	case "!!timestamp":
		return "the time " + text
	}
	return fmt.Sprintf("a string (%q)", strings.TrimSpace(text))
}

// resolve follows a YAML alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func isNumber(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float")
}
