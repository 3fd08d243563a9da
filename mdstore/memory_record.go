package mdstore

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/curator-dev/curator/frontmatter"
)

// DefaultConfidence is the content_confidence a new memory gets when none
// is given.
const DefaultConfidence = 3

// NewMemory is what a new inbox memory is made of.
type NewMemory struct {
	// ID is the memory's id; empty means "m-" and a run id of IngestionTime.
	ID    string
	Type  string
	Brief string
	// Author, Tags and Scenario are written only when set.
	Author string
	Tags   []string
	// Confidence is content_confidence; 0 means DefaultConfidence.
	Confidence int
	// Factors are the importance factors given; they are written in
	// formula order, and the key is left out when there are none.
	Factors       map[string]float64
	IngestionTime time.Time
	Scenario      string
	// Body is the memory's content; a newline is added when it lacks one.
	Body string
}

// NewMemoryRecord lays out a new memory as its inbox file: the keys id,
// type, status (inbox), maturity (case), brief, author, tags,
// content_confidence, importance_factors, ingestion_time (UTC) and
// scenario, in that order, then the body. The record gets every check a
// file gets; an *InvalidFile says what is wrong.
func NewMemoryRecord(n NewMemory) (*Memory, error) {
	if n.ID == "" {
		n.ID = "m-" + NewRunID(n.IngestionTime)
	}
	if n.Confidence == 0 {
		n.Confidence = DefaultConfidence
	}
	for _, name := range slices.Sorted(maps.Keys(n.Factors)) {
		if !slices.Contains(ImportanceFactors, name) {
			return nil, &InvalidFile{Path: MemoryPath("inbox", n.Type, n.ID), Msg: fmt.Sprintf("importance_factors: unknown factor %q (known: %s)",
				name, strings.Join(ImportanceFactors, ", "))}
		}
	}
	body := n.Body
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	kv := []frontmatter.KV{
		{Key: "id", Value: n.ID}, {Key: "type", Value: n.Type}, {Key: "status", Value: "inbox"},
		{Key: "maturity", Value: "case"}, {Key: "brief", Value: n.Brief},
	}
	if n.Author != "" {
		kv = append(kv, frontmatter.KV{Key: "author", Value: n.Author})
	}
	if len(n.Tags) > 0 {
		kv = append(kv, frontmatter.KV{Key: "tags", Value: n.Tags})
	}
	kv = append(kv, frontmatter.KV{Key: "content_confidence", Value: n.Confidence})
	if f := orderedFactors(n.Factors); f != nil {
		kv = append(kv, frontmatter.KV{Key: "importance_factors", Value: f})
	}
	kv = append(kv, frontmatter.KV{Key: "ingestion_time", Value: n.IngestionTime.UTC()})
	if n.Scenario != "" {
		kv = append(kv, frontmatter.KV{Key: "scenario", Value: n.Scenario})
	}
	doc, err := frontmatter.New([]byte(body), kv...)
	if err != nil {
		return nil, err
	}
	return ParseMemory(MemoryPath("inbox", n.Type, n.ID), doc.Bytes())
}

// orderedFactors is the importance_factors mapping with its keys in
// formula order, or nil when no factor is given.
func orderedFactors(f map[string]float64) *yaml.Node {
	var m *yaml.Node
	for _, k := range ImportanceFactors {
		v, ok := f[k]
		if !ok {
			continue
		}
		if m == nil {
			m = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		}
		var val yaml.Node
		if err := val.Encode(v); err != nil {
			continue // a float64 always encodes
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, &val)
	}
	return m
}
