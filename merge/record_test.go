package merge

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/curator-dev/curator/frontmatter"
)

const baseRecord = `---
id: STRAT-001
confidence: 0.5
helpful_count: 2
harmful_count: 0
usage_count: 5
tags: [a, b, c]
updated_at: 2026-01-01T00:00:00Z
validation: none
x_custom: keep
---

line one
line two
line three
`

// edit replaces each old string of a record with its new one.
func edit(s string, pairs ...string) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			panic("test edit: " + pairs[i] + " not found")
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

func frontKeys(t *testing.T, data []byte) map[string]any {
	t.Helper()
	d, err := frontmatter.Parse(data)
	if err != nil {
		t.Fatalf("result does not parse: %v\n%s", err, data)
	}
	m := map[string]any{}
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRecordKeys(t *testing.T) {
	tests := []struct {
		name         string
		ours, theirs []string // edits of baseRecord
		key          string
		want         string // YAML of the merged value
	}{
		{"counters both sides", []string{"helpful_count: 2", "helpful_count: 3"}, []string{"helpful_count: 2", "helpful_count: 5"}, "helpful_count", "6"},
		{"usage both sides", []string{"usage_count: 5", "usage_count: 6"}, []string{"usage_count: 5", "usage_count: 7"}, "usage_count", "8"},
		{"the same increment made on both sides counts twice", []string{"helpful_count: 2", "helpful_count: 3"}, []string{"helpful_count: 2", "helpful_count: 3"}, "helpful_count", "4"},
		{"the same confidence change on both sides", []string{"confidence: 0.5", "confidence: 0.6"}, []string{"confidence: 0.5", "confidence: 0.6"}, "confidence", "0.7"},
		{"the same edit on both sides is one edit", []string{"validation: none", "validation: approved"}, []string{"validation: none", "validation: approved"}, "validation", "approved"},
		{"trashed by two runs keeps the first decision", []string{"x_custom: keep", "x_custom: keep\ntrashed:\n  at: 2026-02-01T00:00:02Z\n  reason: low_score\n  run: r2"}, []string{"x_custom: keep", "x_custom: keep\ntrashed:\n  at: 2026-02-01T00:00:01Z\n  reason: low_score\n  run: r1"}, "trashed", "{at: 2026-02-01T00:00:01Z, reason: low_score, run: r1}"},
		{"counter one side", nil, []string{"harmful_count: 0", "harmful_count: 4"}, "harmful_count", "4"},
		{"confidence deltas", []string{"confidence: 0.5", "confidence: 0.6"}, []string{"confidence: 0.5", "confidence: 0.7"}, "confidence", "0.8"},
		{"confidence clamped at 1", []string{"confidence: 0.5", "confidence: 0.9"}, []string{"confidence: 0.5", "confidence: 0.8"}, "confidence", "1"},
		{"confidence clamped at 0", []string{"confidence: 0.5", "confidence: 0.1"}, []string{"confidence: 0.5", "confidence: 0.2"}, "confidence", "0"},
		{"updated_at the later (theirs)", []string{"updated_at: 2026-01-01T00:00:00Z", "updated_at: 2026-02-01T00:00:00Z"}, []string{"updated_at: 2026-01-01T00:00:00Z", "updated_at: 2026-03-01T00:00:00Z"}, "updated_at", "2026-03-01T00:00:00Z"},
		{"updated_at the later (ours)", []string{"updated_at: 2026-01-01T00:00:00Z", "updated_at: 2026-04-01T00:00:00Z"}, []string{"updated_at: 2026-01-01T00:00:00Z", "updated_at: 2026-03-01T00:00:00Z"}, "updated_at", "2026-04-01T00:00:00Z"},
		{"last_used_at added both", []string{"x_custom: keep", "x_custom: keep\nlast_used_at: 2026-05-01T00:00:00Z"}, []string{"x_custom: keep", "x_custom: keep\nlast_used_at: 2026-05-02T00:00:00Z"}, "last_used_at", "2026-05-02T00:00:00Z"},
		{"tags union with removals", []string{"tags: [a, b, c]", "tags: [a, c, d]"}, []string{"tags: [a, b, c]", "tags: [b, c, e, d]"}, "tags", "[c, d, e]"},
		{"tags removed on one side", []string{"tags: [a, b, c]", "tags: [a, b]"}, []string{"tags: [a, b, c]", "tags: [a, b, c, z]"}, "tags", "[a, b, z]"},
		{"one side change", []string{"validation: none", "validation: approved"}, nil, "validation", "approved"},
		{"theirs one side change", nil, []string{"validation: none", "validation: rejected"}, "validation", "rejected"},
		{"unknown key kept", []string{"helpful_count: 2", "helpful_count: 3"}, []string{"x_custom: keep", "x_custom: keep\ny_new: theirs"}, "y_new", "theirs"},
		{"unknown key untouched", []string{"helpful_count: 2", "helpful_count: 3"}, nil, "x_custom", "keep"},
		{"key deleted on one side", nil, []string{"x_custom: keep\n", ""}, "x_custom", "null"},
		{"deleted here edited there keeps the edit", []string{"x_custom: keep\n", ""}, []string{"x_custom: keep", "x_custom: changed"}, "x_custom", "changed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ours := edit(baseRecord, tc.ours...)
			theirs := edit(baseRecord, tc.theirs...)
			r, err := File("context/bullets/strategy/STRAT-001.md", []byte(baseRecord), []byte(ours), []byte(theirs))
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Conflicts) != 0 {
				t.Fatalf("conflicts %+v", r.Conflicts)
			}
			got := frontKeys(t, r.Data)[tc.key]
			var want any
			if err := yaml.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if g, w := yamlText(got), yamlText(want); g != w {
				t.Errorf("%s = %s, want %s\n%s", tc.key, g, w, r.Data)
			}
		})
	}
}

func yamlText(v any) string {
	b, _ := yaml.Marshal(v)
	return strings.TrimSpace(string(b))
}

func TestUntouchedLinesKeepTheirBytes(t *testing.T) {
	base := edit(baseRecord, "x_custom: keep", "x_custom:   'keep'   # a comment")
	ours := edit(base, "helpful_count: 2", "helpful_count: 3")
	theirs := edit(base, "helpful_count: 2", "helpful_count: 4")
	r, err := File("a.md", []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	want := edit(base, "helpful_count: 2", "helpful_count: 5")
	if string(r.Data) != want {
		t.Errorf("got\n%s\nwant\n%s", r.Data, want)
	}
}

func TestConflictingScalar(t *testing.T) {
	ours := edit(baseRecord, "validation: none", "validation: approved")
	theirs := edit(baseRecord, "validation: none", "validation: rejected")
	r, err := File("p.md", []byte(baseRecord), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(r.Data), "<<<<<<<") {
		t.Errorf("conflict markers in the result:\n%s", r.Data)
	}
	m := frontKeys(t, r.Data)
	if m["validation"] != "approved" {
		t.Errorf("validation = %v, want ours", m["validation"])
	}
	aside, _ := m[conflictsKey].(map[string]any)
	if aside["validation"] != "rejected" {
		t.Errorf("merge_conflicts = %v, want theirs kept", m[conflictsKey])
	}
	if len(r.Conflicts) != 1 {
		t.Fatalf("conflicts %+v", r.Conflicts)
	}
	c := r.Conflicts[0]
	if c.Key != "validation" || c.Ours != "approved" || c.Theirs != "rejected" || c.Line != 9 || c.Path != "p.md" {
		t.Errorf("conflict %+v", c)
	}
}

func TestBodies(t *testing.T) {
	tests := []struct {
		name         string
		ours, theirs []string
		want         string
		conflicts    int
	}{
		{"one side", []string{"line two", "line 2"}, nil, "\nline one\nline 2\nline three\n", 0},
		{"both sides apart", []string{"line one", "line 1"}, []string{"line three", "line 3"}, "\nline 1\nline two\nline 3\n", 0},
		{"same change both", []string{"line two", "line 2"}, []string{"line two", "line 2"}, "\nline one\nline 2\nline three\n", 0},
		{"lines added at the same place are both kept", []string{"line three\n", "line three\nnote a\n"}, []string{"line three\n", "line three\nnote b\n"},
			"\nline one\nline two\nline three\nnote a\nnote b\n", 0},
		{"overlap", []string{"line two", "ours two"}, []string{"line two", "theirs two"},
			"\nline one\n<<<<<<< ours\nours two\n=======\ntheirs two\n>>>>>>> theirs\nline three\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := File("m.md", []byte(baseRecord), []byte(edit(baseRecord, tc.ours...)), []byte(edit(baseRecord, tc.theirs...)))
			if err != nil {
				t.Fatal(err)
			}
			d, err := frontmatter.Parse(r.Data)
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Body()) != tc.want {
				t.Errorf("body\n%q\nwant\n%q", d.Body(), tc.want)
			}
			if len(r.Conflicts) != tc.conflicts {
				t.Fatalf("conflicts %+v", r.Conflicts)
			}
			if tc.conflicts > 0 {
				c := r.Conflicts[0]
				lines := strings.Split(string(r.Data), "\n")
				if c.Key != "" || c.Line < 1 || lines[c.Line-1] != markOurs || c.Ours != "ours two\n" || c.Theirs != "theirs two\n" {
					t.Errorf("conflict %+v", c)
				}
			}
		})
	}
}

func TestBothAdded(t *testing.T) {
	other := edit(baseRecord, "line one", "another record")
	tests := []struct {
		name         string
		ours, theirs string
		conflicts    int
	}{
		{"identical", baseRecord, baseRecord, 0},
		{"different", baseRecord, other, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := File("x.md", nil, []byte(tc.ours), []byte(tc.theirs))
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Data) != tc.ours || len(r.Conflicts) != tc.conflicts {
				t.Errorf("data %q conflicts %+v", r.Data, r.Conflicts)
			}
		})
	}
}

func TestDeleted(t *testing.T) {
	changed := edit(baseRecord, "usage_count: 5", "usage_count: 6")
	tests := []struct {
		name         string
		ours, theirs []byte
		want         []byte
		conflicts    int
	}{
		{"deleted ours, unchanged theirs", nil, []byte(baseRecord), nil, 0},
		{"unchanged ours, deleted theirs", []byte(baseRecord), nil, nil, 0},
		{"deleted ours, edited theirs", nil, []byte(changed), []byte(changed), 1},
		{"edited ours, deleted theirs", []byte(changed), nil, []byte(changed), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := File("x.md", []byte(baseRecord), tc.ours, tc.theirs)
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Data) != string(tc.want) || (r.Data == nil) != (tc.want == nil) || len(r.Conflicts) != tc.conflicts {
				t.Errorf("data %q conflicts %+v", r.Data, r.Conflicts)
			}
		})
	}
}

func TestCRLF(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	base := crlf(baseRecord)
	ours := crlf(edit(baseRecord, "helpful_count: 2", "helpful_count: 3", "line one", "line 1"))
	theirs := crlf(edit(baseRecord, "helpful_count: 2", "helpful_count: 4", "tags: [a, b, c]", "tags: [a, b, c, d]", "line three", "line 3"))
	r, err := File("c.md", []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(r.Data), "\n") != strings.Count(string(r.Data), "\r\n") {
		t.Errorf("bare LF in\n%q", r.Data)
	}
	want := crlf(edit(baseRecord, "helpful_count: 2", "helpful_count: 5", "tags: [a, b, c]", "tags: [a, b, c, d]", "line one", "line 1", "line three", "line 3"))
	if string(r.Data) != want {
		t.Errorf("got\n%q\nwant\n%q", r.Data, want)
	}
}

func TestBrokenSide(t *testing.T) {
	broken := edit(baseRecord, "tags: [a, b, c]", "tags: [a, b")
	for _, side := range []string{"base", "ours", "theirs"} {
		t.Run(side, func(t *testing.T) {
			in := map[string][]byte{"base": []byte(baseRecord), "ours": []byte(baseRecord), "theirs": []byte(edit(baseRecord, "usage_count: 5", "usage_count: 6"))}
			in[side] = []byte(broken)
			_, err := File("b.md", in["base"], in["ours"], in["theirs"])
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, "("+side+")") || !strings.Contains(msg, "line 7") {
				t.Errorf("error %q does not name the side and line 7", msg)
			}
		})
	}
}
