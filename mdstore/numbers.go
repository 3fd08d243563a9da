package mdstore

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Numbers are numbers: YAML decoding into an int would truncate 4.5 to 4,
// a float field would take .nan or .inf, and a number too large to hold
// (1e999) is read as text and would be told as a string. Each record type
// checks its numeric keys on the YAML nodes before decoding, so such a
// value is invalid input, named with its line, and never scored or
// truncated.

// numberKeys are the numeric keys of a record (top level of the mapping
// being decoded).
type numberKeys struct {
	ints, floats []string
	// intLists are lists of whole numbers.
	intLists []string
	// factorMaps are maps of numbers, checked in range after decoding:
	// here only a number too large to decode is refused.
	factorMaps []string
}

var (
	memoryNumbers     = numberKeys{ints: []string{"content_confidence"}, factorMaps: []string{"importance_factors"}}
	bulletNumbers     = numberKeys{ints: []string{"priority", "helpful_count", "harmful_count", "usage_count", "version"}, floats: []string{"confidence"}}
	lessonNumbers     = numberKeys{ints: []string{"priority"}, floats: []string{"confidence"}}
	reflectionNumbers = numberKeys{intLists: []string{"curated_lessons"}}
)

// tooLarge says a number is beyond what curator can hold.
const tooLarge = "%s is out of range, a number too far from 0 for curator to hold"

// numberError is a bad number, as a YAML type error so that the document's
// decoder reports it with the file line.
func numberError(n *yaml.Node, key, format string, a ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %s: %s", n.Line, key, fmt.Sprintf(format, a...))}}
}

// checkIntNode accepts an integer, or a float whose value is a whole
// number (3.0); it refuses 4.5, .nan, .inf and -.inf, and a number too
// large to hold.
func checkIntNode(key string, n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return nil // the decoder reports the wrong kind
	}
	if overflows(n) {
		return numberError(n, key, tooLarge, n.Value)
	}
	if outsideInt(n) {
		return numberError(n, key, tooLarge, n.Value)
	}
	if n.ShortTag() == "!!float" {
		f, err := strconv.ParseFloat(yamlFloat(n.Value), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
			return numberError(n, key, "%s is not a whole number", n.Value)
		}
	}
	return nil
}

// outsideInt tells a number no whole-number field holds: a whole number
// of twenty digits (read as an int or, one past the range, as a float
// rounded to one that may fit: -9223372036854775809 to -2⁶³), or 1e19.
func outsideInt(n *yaml.Node) bool {
	if !isNumber(n) {
		return false
	}
	plain := strings.ReplaceAll(n.Value, "_", "")
	base := 10
	if n.ShortTag() == "!!int" {
		base = 0
	}
	if _, err := strconv.ParseInt(plain, base, strconv.IntSize); errors.Is(err, strconv.ErrRange) {
		return true
	}
	f, err := strconv.ParseFloat(plain, 64)
	return n.ShortTag() == "!!float" && err == nil && (f < math.MinInt || f >= -math.MinInt)
}

// checkFloatNode refuses .nan, .inf and -.inf, and a number too large to
// hold.
func checkFloatNode(key string, n *yaml.Node) error {
	if overflows(n) {
		return numberError(n, key, tooLarge, n.Value)
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!float" {
		return nil
	}
	f, err := strconv.ParseFloat(yamlFloat(n.Value), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return numberError(n, key, "%s is not a finite number", n.Value)
	}
	return nil
}

// yamlNumber is how YAML writes a decimal number (its float syntax).
var yamlNumber = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// overflows tells a number written plainly that no float holds (1e999):
// YAML reads it as text, and the decoder would say it got a string.
func overflows(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Style != 0 || n.ShortTag() != "!!str" {
		return false
	}
	plain := strings.ReplaceAll(n.Value, "_", "")
	if !yamlNumber.MatchString(plain) {
		return false
	}
	_, err := strconv.ParseFloat(plain, 64)
	return errors.Is(err, strconv.ErrRange)
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
func checkNumbers(n *yaml.Node, keys numberKeys) error {
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
		switch {
		case slices.Contains(keys.ints, k):
			add(checkIntNode(k, v))
		case slices.Contains(keys.floats, k):
			add(checkFloatNode(k, v))
		case slices.Contains(keys.intLists, k) && v.Kind == yaml.SequenceNode:
			for _, e := range v.Content {
				add(checkIntNode(k, e))
			}
		case slices.Contains(keys.factorMaps, k) && v.Kind == yaml.MappingNode:
			for j := 0; j+1 < len(v.Content); j += 2 {
				if e := v.Content[j+1]; overflows(e) {
					add(numberError(e, k, "%s: "+tooLarge, v.Content[j].Value, e.Value))
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
	if err := checkNumbers(n, memoryNumbers); err != nil {
		return err
	}
	type plain Memory
	return n.Decode((*plain)(m))
}

// UnmarshalYAML decodes a bullet after checking its numbers.
func (b *Bullet) UnmarshalYAML(n *yaml.Node) error {
	if err := checkNumbers(n, bulletNumbers); err != nil {
		return err
	}
	type plain Bullet
	return n.Decode((*plain)(b))
}

// UnmarshalYAML decodes a lesson after checking its numbers.
func (l *Lesson) UnmarshalYAML(n *yaml.Node) error {
	if err := checkNumbers(n, lessonNumbers); err != nil {
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
	if err := checkNumbers(n, reflectionNumbers); err != nil {
		return err
	}
	type plain Reflection
	return n.Decode((*plain)(r))
}
