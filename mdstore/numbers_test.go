package mdstore

import (
	"errors"
	"strings"
	"testing"

	"github.com/curator-dev/curator/frontmatter"
)

// Numbers are numbers: a value that is not a whole number where an integer
// is expected, and NaN or infinity anywhere, is invalid input named with
// its line, never truncated or scored.
func TestMemoryNumbers(t *testing.T) {
	const head = "---\nid: m1\ntype: fact\nbrief: b\ningestion_time: 2026-11-29T09:00:00Z\n"
	cases := []struct {
		yaml, want string
		line       int
	}{
		{"content_confidence: 4.5\n", "content_confidence: 4.5 is not a whole number", 6},
		{"content_confidence: .nan\n", "content_confidence: .nan is not a whole number", 6},
		{"content_confidence: .inf\n", "content_confidence: .inf is not a whole number", 6},
		{"content_confidence: -.inf\n", "content_confidence: -.inf is not a whole number", 6},
		{"importance_factors: {proximity: .nan}\n", "proximity is NaN, out of range", 6},
		{"importance_factors:\n  surprisal: .inf\n", "surprisal is +Inf, out of range", 6},
		// YAML reads a number too large for a float as text: it is told
		// as out of range, not as a string
		{"content_confidence: 1e999\n", "content_confidence: 1e999 is out of range, a number too far from 0 for curator to hold", 6},
		{"content_confidence: 99999999999999999999\n", "content_confidence: 99999999999999999999 is out of range, a number too far from 0", 6},
		{"content_confidence: 18446744073709551615\n", "content_confidence: 18446744073709551615 is out of range, a number too far from 0", 6},
		{"content_confidence: -9223372036854775809\n", "content_confidence: -9223372036854775809 is out of range, a number too far from 0", 6},
		{"importance_factors:\n  proximity: -1e999\n", "importance_factors: proximity: -1e999 is out of range, a number too far from 0", 7},
		{"content_confidence: 4.0\n", "", 0},
		{"content_confidence: 4\n", "", 0},
	}
	for _, c := range cases {
		m, err := ParseMemory("memory/inbox/m1.md", []byte(head+c.yaml+"---\nbody\n"))
		if c.want == "" {
			if err != nil || m.Confidence() != 4 {
				t.Errorf("%q: %v, %+v", c.yaml, err, m)
			}
			continue
		}
		var inv *InvalidFile
		if !errors.As(err, &inv) || !strings.Contains(inv.Msg, c.want) || inv.Line != c.line || inv.Path != "memory/inbox/m1.md" {
			t.Errorf("%q: got %v, want line %d: %s", c.yaml, err, c.line, c.want)
		}
	}
}

func TestBulletNumbers(t *testing.T) {
	const head = "---\nid: STRAT-001\ncategory: strategy\n"
	cases := []struct{ yaml, want string }{
		{"priority: 2.5\n", "priority: 2.5 is not a whole number"},
		{"helpful_count: 1.5\n", "helpful_count: 1.5 is not a whole number"},
		{"harmful_count: .inf\n", "harmful_count: .inf is not a whole number"},
		{"usage_count: .nan\n", "usage_count: .nan is not a whole number"},
		{"version: 1.1\n", "version: 1.1 is not a whole number"},
		{"confidence: .nan\n", "confidence: .nan is not a finite number"},
		{"confidence: -.inf\n", "confidence: -.inf is not a finite number"},
		{"confidence: 1e999\n", "confidence: 1e999 is out of range, a number too far from 0 for curator to hold"},
		{"helpful_count: 1e999\n", "helpful_count: 1e999 is out of range, a number too far from 0"},
		{"usage_count: 1e20\n", "usage_count: 1e20 is out of range, a number too far from 0"},
	}
	for _, c := range cases {
		d, err := frontmatter.Parse([]byte(head + c.yaml + "---\nx\n"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeBullet("context/bullets/strategy/STRAT-001.md", d)
		var inv *InvalidFile
		if !errors.As(err, &inv) || !strings.Contains(inv.Msg, c.want) || inv.Line != 4 {
			t.Errorf("%q: got %v, want line 4: %s", c.yaml, err, c.want)
		}
	}
}

func TestReflectionNumbers(t *testing.T) {
	cases := []struct {
		name, data, want string
		line             int
	}{
		{"r.md", "---\nid: r\nlessons:\n  - content: x\n    priority: 2.5\n---\n", "priority: 2.5 is not a whole number", 5},
		{"r.md", "---\nid: r\nlessons:\n  - content: x\n    confidence: .nan\n---\n", "confidence: .nan is not a finite number", 5},
		{"r.md", "---\nid: r\nlessons:\n  - content: x\ncurated_lessons: [1.5]\n---\n", "curated_lessons: 1.5 is not a whole number", 5},
		{"r.json", `{"id": "r", "lessons": [{"content": "x", "priority": 2.5}]}`, "priority", 1},
		{"r.md", "---\nid: r\nlessons:\n  - content: x\n    confidence: 1e999\n---\n", "lessons[0].confidence: 1e999 is out of range, a number too far from 0", 5},
		{"r.json", "{\"id\": \"r\",\n \"lessons\": [{\"content\": \"x\", \"confidence\": 1e999}]}", "lessons[0].confidence: 1e999 is out of range, a number too far from 0", 2},
		{"r.json", `{"id": "r", "lessons": [{"content": "x", "priority": -1e999}]}`, "lessons[0].priority: -1e999 is out of range, a number too far from 0", 1},
		{"r.md", "---\nid: r\nlessons:\n  - content: x\ncurated_lessons: [1e999]\n---\n", "curated_lessons[0]: 1e999 is out of range, a number too far from 0", 5},
		// whole numbers no whole-number field holds, with their line
		{"r.json", "{\"id\":\"r\",\n \"lessons\":[{\"content\":\"x\",\"priority\":9223372036854775808}]}", "lessons[0].priority: 9223372036854775808 is out of range, a number too far from 0", 2},
		{"r.json", "{\"id\":\"r\",\n \"lessons\":[{\"content\":\"x\",\"priority\":1e19}]}", "lessons[0].priority: 1e19 is out of range, a number too far from 0", 2},
		{"r.json", "{\"id\":\"r\", \"lessons\":[{\"content\":\"x\"}],\n \"curated_lessons\":[1, 9223372036854775808]}", "curated_lessons[1]: 9223372036854775808 is out of range, a number too far from 0", 2},
		{"r.md", "---\nid: r\nlessons:\n  - content: x\n    priority: 9223372036854775808\n---\n", "lessons[0].priority: 9223372036854775808 is out of range, a number too far from 0", 5},
		// quoted, it is text
		{"r.md", "---\nid: r\nlessons:\n  - content: x\n    confidence: \"1e999\"\n---\n", `lessons[0].confidence: want a number in [0,1], got a string ("1e999")`, 5},
	}
	for _, c := range cases {
		_, err := ParseReflection(c.name, []byte(c.data))
		var inv *InvalidFile
		if !errors.As(err, &inv) || !strings.Contains(inv.Msg, c.want) || inv.Line != c.line {
			t.Errorf("%q: got %v, want line %d: %s", c.data, err, c.line, c.want)
		}
	}
}
