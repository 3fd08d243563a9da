package config

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/curator-dev/curator/internal/duration"
)

// ErrInvalid means config.yaml cannot be used: it is not YAML, it holds a
// key curator does not know, or a value of the wrong kind. Nothing runs
// until it is fixed.
var ErrInvalid = errors.New("config.yaml is invalid")

// Error is one problem of config.yaml: the file, the line and the key
// (dotted: memory.dedup_prefix), and what is wrong.
type Error struct {
	Path string
	Line int
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.Path, e.Line, e.Key, e.Msg)
}

func (e *Error) Unwrap() error { return ErrInvalid }

// A setting checks one value of config.yaml and says what is wrong with it
// ("" when nothing is).
type setting = func(n *yaml.Node) string

// section is a map of known keys; a key that is not in it is an error.
type section map[string]any // setting or section

// anyKey is the key of a section whose keys are the user's (id_prefixes).
const anyKey = "*"

// configSchema is every key config.yaml may hold, and the kind of its
// value; the defaults are Default's. A key set to nothing (`key:`)
// keeps its default.
var configSchema = section{
	"author":       section{"name": textSetting, "email": textSetting},
	"lock_timeout": durationSetting,
	"memory":       section{"dedup_prefix": atLeast(1), "observation_days": atLeast(1)},
	"id_prefixes":  section{anyKey: textSetting},
	"context":      section{"similarity_threshold": between(MergeFloor, 1), "min_confidence": unitNumber, "sensitive_patterns": listOf(regexpText)},
	"similarity": section{"engine": settingOneOf("lexical", "embeddings"), "base_url": textSetting, "model": textSetting, "api_key_env": textSetting,
		"cache_file": textSetting, "fallback": settingOneOf("", "local"), "timeout": durationSetting},
	"pipelines": section{"context_window": atLeast(1), "compression_threshold": unitNumber, "state_backups": atLeast(0),
		"enable_drift_detection": boolSetting, "enable_dashboard": boolSetting, "hooks": pipelineHooksSchema,
		"relevant_context": pipelineRelevantSchema},
	"secrets": section{"allow": listOf(regexpText)},
	"access":  accessSchema,
}

// checkConfig refuses a config.yaml with unknown keys or bad values: the
// first problem, in file order.
func checkConfig(path string, doc *yaml.Node) error {
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil // empty file: every default
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil
	}
	if err := checkSection(path, "", root, configSchema); err != nil {
		return err
	}
	return checkEmbeddings(path, root)
}

// checkEmbeddings refuses the embeddings engine without the server and
// the model it needs.
func checkEmbeddings(path string, root *yaml.Node) error {
	engine := child(child(root, "similarity"), "engine")
	if engine == nil || engine.Value != "embeddings" {
		return nil
	}
	for _, key := range []string{"base_url", "model"} {
		if v := child(child(root, "similarity"), key); v == nil || v.Value == "" {
			return &Error{Path: path, Line: engine.Line, Key: "similarity.engine",
				Msg: "the embeddings engine needs similarity." + key + " (or set engine: lexical)"}
		}
	}
	return nil
}

// child is the value of key in the map n (nil when n is not a map or
// has no such key).
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func checkSection(path, at string, n *yaml.Node, s section) error {
	where := at
	if where == "" {
		where = "the file"
	}
	if n.Kind != yaml.MappingNode {
		return &Error{Path: path, Line: n.Line, Key: at, Msg: where + " must be a map of keys"}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := k.Value
		if at != "" {
			key = at + "." + k.Value
		}
		if seen[k.Value] {
			return &Error{Path: path, Line: k.Line, Key: key, Msg: "is set twice"}
		}
		seen[k.Value] = true
		want, ok := s[k.Value]
		if !ok {
			want, ok = s[anyKey]
		}
		if !ok {
			return &Error{Path: path, Line: k.Line, Key: key, Msg: "unknown key (known: " + strings.Join(s.keys(), ", ") + ")"}
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue // unset: the default
		}
		switch w := want.(type) {
		case section:
			if err := checkSection(path, key, v, w); err != nil {
				return err
			}
		case setting:
			if msg := w(v); msg != "" {
				return &Error{Path: path, Line: v.Line, Key: key, Msg: msg}
			}
		}
	}
	return nil
}

func (s section) keys() []string {
	out := make([]string, 0, len(s))
	for k := range s {
		if k != anyKey {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// scalar is n's textSetting when it is a plain value (not a map or a list).
func scalar(n *yaml.Node) (string, bool) {
	return n.Value, n.Kind == yaml.ScalarNode
}

func textSetting(n *yaml.Node) string {
	if _, ok := scalar(n); !ok || n.Tag != "!!str" && n.Tag != "!!int" && n.Tag != "!!float" && n.Tag != "!!bool" {
		return "want a text value"
	}
	return ""
}

func regexpText(n *yaml.Node) string {
	if msg := textSetting(n); msg != "" {
		return msg
	}
	if _, err := regexp.Compile(n.Value); err != nil {
		return fmt.Sprintf("%q is not a regular expression: %v", n.Value, err)
	}
	return ""
}

func durationSetting(n *yaml.Node) string {
	v, ok := scalar(n)
	if !ok {
		return "want a duration, " + duration.Accepted
	}
	if _, err := duration.Parse(v); err != nil {
		return err.Error()
	}
	return ""
}

func atLeast(min int) setting {
	return func(n *yaml.Node) string {
		v, ok := scalar(n)
		i, err := strconv.Atoi(v)
		if !ok || n.Tag != "!!int" || err != nil || i < min {
			return fmt.Sprintf("%q: want a whole number ≥ %d", v, min)
		}
		return ""
	}
}

func unitNumber(n *yaml.Node) string { return between(0, 1)(n) }

func between(lo, hi float64) setting {
	return func(n *yaml.Node) string {
		v, ok := scalar(n)
		f, err := strconv.ParseFloat(v, 64)
		if !ok || n.Tag != "!!int" && n.Tag != "!!float" || err != nil || !(f >= lo && f <= hi) {
			return fmt.Sprintf("%q: want a number from %g to %g", v, lo, hi)
		}
		return ""
	}
}

func boolSetting(n *yaml.Node) string {
	if v, _ := scalar(n); n.Tag != "!!bool" {
		return fmt.Sprintf("%q: want true or false", v)
	}
	return ""
}

func settingOneOf(values ...string) setting {
	return func(n *yaml.Node) string {
		v, ok := scalar(n)
		for _, w := range values {
			if ok && v == w {
				return ""
			}
		}
		var quoted []string
		for _, w := range values {
			if w != "" {
				quoted = append(quoted, strconv.Quote(w))
			}
		}
		return fmt.Sprintf("%q: want %s", v, strings.Join(quoted, " or "))
	}
}

func listOf(each setting) setting {
	return func(n *yaml.Node) string {
		if n.Kind != yaml.SequenceNode {
			return "want a list"
		}
		for i, x := range n.Content {
			if msg := each(x); msg != "" {
				return fmt.Sprintf("item %d: %s", i+1, msg)
			}
		}
		return ""
	}
}
