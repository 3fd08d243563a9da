package memory

import (
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// Entry is one memory as the reports show it (`memory show --json`,
// `memory list --json`, the MCP tools), fields in the order of their keys.
type Entry struct {
	Author            string             `json:"author"`
	Body              string             `json:"body"`
	Brief             string             `json:"brief"`
	ContentConfidence int                `json:"content_confidence"`
	ID                string             `json:"id"`
	ImportanceFactors map[string]float64 `json:"importance_factors"`
	IngestionTime     string             `json:"ingestion_time"`
	Maturity          string             `json:"maturity"`
	Observation       map[string]any     `json:"observation"`
	Path              string             `json:"path"`
	Scenario          string             `json:"scenario"`
	Score             float64            `json:"score"`
	SourceCases       []string           `json:"source_cases"`
	Status            string             `json:"status"`
	Tags              []string           `json:"tags"`
	Trashed           map[string]any     `json:"trashed"`
	Type              string             `json:"type"`
}

// NewEntry is m as the reports show it.
func NewEntry(m *mdstore.Memory) Entry {
	return Entry{
		Author: m.Author, Body: m.Body(), Brief: m.Brief, ContentConfidence: m.Confidence(), ID: m.ID,
		ImportanceFactors: m.Factors(), IngestionTime: m.IngestionTime.UTC().Format(time.RFC3339Nano),
		Maturity: m.Maturity, Observation: m.Observation, Path: m.Path, Scenario: m.Scenario,
		Score: Score(m), SourceCases: nonNil(m.SourceCases), Status: m.Status,
		Tags: nonNil(m.Tags), Trashed: m.Trashed, Type: m.Type,
	}
}

// nonNil is never nil, so JSON reports show [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
