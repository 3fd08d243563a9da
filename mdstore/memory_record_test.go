package mdstore

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestNewMemoryRecordLayout(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 30, 0, 0, time.FixedZone("CET", 3600))
	m, err := NewMemoryRecord(NewMemory{
		ID: "m-1", Type: "lesson", Brief: "retry flaky tests once", Author: "ana", Tags: []string{"ci", "go"},
		Confidence: 4, IngestionTime: at, Scenario: "flaky CI", Body: "Retry once, then file it.",
		// given out of order
		Factors: map[string]float64{"unambiguity": 0.5, "proximity": 0.9, "entity_priority": 0},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `---
id: m-1
type: lesson
status: inbox
maturity: case
brief: retry flaky tests once
author: ana
tags:
  - ci
  - go
content_confidence: 4
importance_factors:
  proximity: 0.9
  entity_priority: 0
  unambiguity: 0.5
ingestion_time: 2026-11-29T09:30:00Z
scenario: flaky CI
---
Retry once, then file it.
`
	if got := string(m.Doc.Bytes()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if m.Path != "memory/inbox/m-1.md" || m.Status != "inbox" || m.Maturity != "case" {
		t.Fatalf("%s %s %s", m.Path, m.Status, m.Maturity)
	}
}

func TestNewMemoryRecordUnknownFactor(t *testing.T) {
	_, err := NewMemoryRecord(NewMemory{ID: "m-1", Type: "fact", Brief: "b", IngestionTime: time.Now(),
		Factors: map[string]float64{"proximty": 0.5}})
	if err == nil || !strings.Contains(err.Error(), `unknown factor "proximty"`) {
		t.Fatalf("a misspelt factor: %v", err)
	}
}

func TestNewMemoryRecordDefaults(t *testing.T) {
	at := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	m, err := NewMemoryRecord(NewMemory{Type: "fact", Brief: "b", IngestionTime: at})
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nid: " + m.ID + "\ntype: fact\nstatus: inbox\nmaturity: case\nbrief: b\ncontent_confidence: 3\ningestion_time: 2026-11-29T09:00:00Z\n---\n"
	if got := string(m.Doc.Bytes()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if len(m.ID) < len("m-20261129T090000Z") || m.ID[:len("m-20261129T090000Z")] != "m-20261129T090000Z" {
		t.Fatalf("generated id %q", m.ID)
	}
}

func TestNewMemoryRecordIsChecked(t *testing.T) {
	_, err := NewMemoryRecord(NewMemory{ID: "m-1", Type: "rumour", Brief: "b", IngestionTime: time.Now()})
	var inv *InvalidFile
	if !errors.As(err, &inv) {
		t.Fatalf("got %v, want an *InvalidFile", err)
	}
}
