package mdstore

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/curator-dev/curator/mdstore/internal/packed"
)

// A packed record unpacks to the record a Light listing reads from its
// file, equal in every field: the ingestion time in its own zone, the
// observation and trashed maps with the kinds YAML decoded them to.
func TestPackedMemoryUnpacksToTheFilesRecord(t *testing.T) {
	s, _ := newStore(t)
	files := map[string]string{
		"memory/inbox/a.md": "---\nid: a\ntype: fact\nbrief: plain\ningestion_time: 2026-11-29T09:00:00Z\n---\nbody\n",
		"memory/inbox/b.md": "---\nid: b\ntype: lesson\nbrief: every field\nauthor: ann\ntags: [x, \"y z\"]\nmaturity: case\n" +
			"content_confidence: 5\nimportance_factors: {proximity: 0.125, unambiguity: 1}\nscenario: deploy\nsource_cases: [c1, c2]\n" +
			"observation: {seen: [x, {y: 1}, 2.5, true, null, 2026-01-02T03:04:05Z], n: 18446744073709551615, empty: {}, list: []}\n" +
			"ingestion_time: 2026-11-29T09:00:00.123456789+02:00\n---\nbody\n",
		"memory/trash/c.md": "---\nid: c\ntype: concept\nbrief: trashed\ntags: []\nsource_cases: []\n" +
			"trashed: {at: 2026-11-30T00:00:00Z, reason: dup, by: {1: one, true: yes}}\n" +
			"ingestion_time: 2026-11-29T09:00:00-05:30\n---\n",
	}
	for rel, text := range files {
		if err := os.MkdirAll(filepath.Dir(s.Path(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.Path(rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel := range files {
		m, err := s.ReadMemory(rel)
		if err != nil {
			t.Fatal(err)
		}
		m.Doc, m.ImportanceFactors = nil, nil
		packed, ok := PackMemory(m)
		if !ok {
			t.Fatalf("%s: not packed", rel)
		}
		got, err := UnpackMemory(rel, m.Type, packed)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("%s: unpacked\n%+v\nwant\n%+v", rel, got, m)
		}
		for n := range len(packed) {
			if _, err := UnpackMemory(rel, m.Type, packed[:n]); err == nil {
				t.Errorf("%s: the first %d of %d bytes unpack", rel, n, len(packed))
			}
		}
	}
}

// Values nest as deep in packed fields as they unpack: a record nested
// deeper is not packed (it is held as read), never packed into bytes that
// do not unpack.
func TestPackedMemoryDepth(t *testing.T) {
	nested := func(depth int) any {
		var v any = "leaf"
		for range depth - 1 {
			v = map[string]any{"a": v}
		}
		return v
	}
	for _, c := range []struct {
		depth int
		packs bool
	}{{1, true}, {packed.MaxDepth, true}, {packed.MaxDepth + 1, false}, {packed.MaxDepth + 50, false}} {
		for _, field := range []string{"observation", "trashed", "list"} {
			m := &Memory{ID: "a", Type: "fact", Brief: "deep"}
			switch field {
			case "observation":
				m.Observation = map[string]any{"x": nested(c.depth - 1)}
			case "trashed":
				m.Trashed = map[string]any{"x": nested(c.depth - 1)}
			case "list":
				m.Observation = map[string]any{"x": []any{nested(c.depth - 2)}}
			}
			if c.depth < 2 {
				m.Observation, m.Trashed = map[string]any{}, nil
			}
			packed, ok := PackMemory(m)
			if ok != c.packs {
				t.Errorf("%s at depth %d: packed %v, want %v", field, c.depth, ok, c.packs)
			}
			if !ok {
				continue
			}
			if _, err := UnpackMemory("memory/inbox/a.md", "fact", packed); err != nil {
				t.Errorf("%s at depth %d: packed, but %v", field, c.depth, err)
			}
		}
	}
}
