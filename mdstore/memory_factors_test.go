package mdstore

import (
	"strings"
	"testing"
)

// A memory with two unknown importance factors is always named with the
// same one (the first by name), whatever order a map gives them in.
func TestUnknownFactorsNamedAlike(t *testing.T) {
	doc := []byte("---\nid: m1\ntype: fact\nstatus: inbox\nbrief: b\nimportance_factors:\n  pboximity: 0.5\n  csurprisal: 0.5\n  zeta: 0.5\n" +
		"ingestion_time: 2026-11-29T09:10:00Z\n---\nbody\n")
	for range 50 {
		_, err := ParseMemory("memory/inbox/m1.md", doc)
		if err == nil || !strings.Contains(err.Error(), `unknown factor "csurprisal"`) {
			t.Fatalf("ParseMemory: %v; want the unknown factor csurprisal named", err)
		}
	}
}
