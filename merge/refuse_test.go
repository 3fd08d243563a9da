package merge

import (
	"errors"
	"strings"
	"testing"
)

const memoryRecord = `---
id: f-old
type: fact
status: trash
brief: build cache location
content_confidence: 3
ingestion_time: 2026-11-01T10:00:00Z
---
The build cache lives in /var/cache/build.
It is pruned weekly.
`

const memoryPath = "memory/trash/f-old.md"

// A version of a record file that is not a record stops the merge with the
// side and the path named; nothing is merged into a husk.
func TestNotARecordIsRefused(t *testing.T) {
	edited := edit(memoryRecord, "content_confidence: 3", "content_confidence: 5")
	husks := []struct {
		name, data, why string
	}{
		{"empty", "", "empty"},
		{"blank", "\n\n", "empty"},
		{"only id", "---\nid: f-old\n---\n", "body"},
		{"no frontmatter", "garbage that was once a memory\n", "frontmatter"},
		{"no id", edit(memoryRecord, "id: f-old\n", ""), "id"},
		{"no type", edit(memoryRecord, "type: fact\n", ""), "type"},
		{"no body", edit(memoryRecord, "The build cache lives in /var/cache/build.\nIt is pruned weekly.\n", ""), "body"},
	}
	for _, h := range husks {
		for _, side := range []string{"base", "ours", "theirs"} {
			t.Run(h.name+"/"+side, func(t *testing.T) {
				in := map[string][]byte{"base": []byte(memoryRecord), "ours": []byte(memoryRecord), "theirs": []byte(edited)}
				if side == "theirs" {
					in["ours"] = []byte(edited)
				}
				in[side] = []byte(h.data)
				r, err := File(memoryPath, in["base"], in["ours"], in["theirs"])
				var se *SideError
				if !errors.As(err, &se) {
					t.Fatalf("no SideError: err %v, merged\n%s", err, r.Data)
				}
				if se.Side != side || se.Path != memoryPath {
					t.Errorf("side %q path %q, want %s %s", se.Side, se.Path, side, memoryPath)
				}
				if !strings.Contains(err.Error(), h.why) || !strings.Contains(err.Error(), "not a record") {
					t.Errorf("error %q does not say why (%s)", err, h.why)
				}
			})
		}
	}
}

// A file both sides added has no base (nil): that is not an empty base.
func TestAddedOnBothSidesHasNoBase(t *testing.T) {
	r, err := File(memoryPath, nil, []byte(memoryRecord), []byte(memoryRecord))
	if err != nil || string(r.Data) != memoryRecord || len(r.Conflicts) != 0 {
		t.Fatalf("err %v conflicts %+v data\n%s", err, r.Conflicts, r.Data)
	}
	// A record deleted on one side and truncated on the other is refused.
	if _, err := File(memoryPath, []byte(memoryRecord), nil, []byte{}); !errors.As(err, new(*SideError)) {
		t.Errorf("truncated against deleted: err %v", err)
	}
	// A file outside the record folders may be empty.
	if _, err := File("pipelines/context-briefs/p/1-plan.md", []byte("a\n"), []byte("a\nb\n"), []byte{}); err != nil {
		t.Errorf("context brief: %v", err)
	}
}

// A version whose frontmatter holds one key twice is refused with the side
// and the line of the second key: it does not parse as a record and would
// lose one of the two values.
func TestDuplicateKeyIsRefused(t *testing.T) {
	dup := edit(memoryRecord, "content_confidence: 3", "content_confidence: 3\nbrief: another brief")
	nested := edit(memoryRecord, "content_confidence: 3", "importance_factors:\n  proximity: 0.5\n  proximity: 0.7")
	for _, tc := range []struct {
		name, data, line string
	}{{"top level", dup, "line 7"}, {"nested", nested, "line 8"}} {
		for _, side := range []string{"base", "ours", "theirs"} {
			t.Run(tc.name+"/"+side, func(t *testing.T) {
				in := map[string][]byte{"base": []byte(memoryRecord), "ours": []byte(memoryRecord), "theirs": []byte(edit(memoryRecord, "pruned weekly", "pruned daily"))}
				in[side] = []byte(tc.data)
				_, err := File(memoryPath, in["base"], in["ours"], in["theirs"])
				var se *SideError
				if !errors.As(err, &se) || se.Side != side {
					t.Fatalf("err %v, want a SideError of %s", err, side)
				}
				if !strings.Contains(err.Error(), tc.line) || !strings.Contains(err.Error(), "twice") {
					t.Errorf("error %q does not name %s", err, tc.line)
				}
			})
		}
	}
}

// A change of line ends alone is no change: the merge takes the other side's
// edits, reports nothing, and keeps ours' line ends.
func TestLineEndsAloneAreNoChange(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	bodyEdit := edit(memoryRecord, "pruned weekly", "pruned daily")
	keyEdit := edit(memoryRecord, "content_confidence: 3", "content_confidence: 4")
	both := edit(bodyEdit, "content_confidence: 3", "content_confidence: 4")
	tests := []struct {
		name               string
		base, ours, theirs string
		want               string
	}{
		{"ours CRLF, theirs edits the body", memoryRecord, crlf(memoryRecord), bodyEdit, crlf(bodyEdit)},
		{"ours CRLF, theirs edits a key", memoryRecord, crlf(memoryRecord), keyEdit, crlf(keyEdit)},
		{"theirs CRLF only", memoryRecord, bodyEdit, crlf(memoryRecord), bodyEdit},
		{"theirs CRLF with an edit", memoryRecord, keyEdit, crlf(bodyEdit), both},
		{"base CRLF", crlf(memoryRecord), keyEdit, bodyEdit, both},
		{"ours CRLF with an edit, theirs LF with another", memoryRecord, crlf(keyEdit), bodyEdit, crlf(both)},
		{"added on both sides, one CRLF", "", memoryRecord, crlf(memoryRecord), memoryRecord},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var base []byte
			if tc.base != "" {
				base = []byte(tc.base)
			}
			r, err := File(memoryPath, base, []byte(tc.ours), []byte(tc.theirs))
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Conflicts) != 0 {
				t.Errorf("conflicts %+v", r.Conflicts)
			}
			if string(r.Data) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", r.Data, tc.want)
			}
		})
	}
}

// Two versions that hold two different records — git's rename detection
// paired a deleted record with a new one of similar content — are refused
// with both ids named, never merged into one.
func TestTwoRecordsAreRefused(t *testing.T) {
	edited := edit(memoryRecord, "pruned weekly", "pruned every Sunday")
	other := edit(memoryRecord, "id: f-old", "id: f-new", "status: trash", "status: inbox")
	newPath := "memory/inbox/f-new.md"
	tests := []struct {
		name               string
		path               string
		base, ours, theirs string
		ids                [2]string
	}{
		{"theirs is another record", newPath, memoryRecord, edited, other, [2]string{"f-old", "f-new"}},
		{"ours is another record", newPath, memoryRecord, other, edited, [2]string{"f-new", "f-old"}},
		{"the file name is another record", newPath, memoryRecord, edited, memoryRecord, [2]string{"f-new", "f-old"}},
		{"added on both sides", newPath, "", other, edit(other, "id: f-new", "id: f-other"), [2]string{"f-new", "f-other"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var base []byte
			if tc.base != "" {
				base = []byte(tc.base)
			}
			r, err := File(tc.path, base, []byte(tc.ours), []byte(tc.theirs))
			var ie *IdentityError
			if !errors.As(err, &ie) {
				t.Fatalf("err %v, merged\n%s", err, r.Data)
			}
			if ie.Path != tc.path || [2]string{ie.IDs[0], ie.IDs[1]} != tc.ids {
				t.Errorf("error %+v, want ids %v", ie, tc.ids)
			}
			for _, id := range tc.ids {
				if !strings.Contains(err.Error(), id) {
					t.Errorf("error %q does not name %s", err, id)
				}
			}
		})
	}
	// One record moved between folders is one record.
	r, err := File("memory/confirmed/fact/f-old.md", []byte(memoryRecord), []byte(edit(memoryRecord, "status: trash", "status: confirmed")), []byte(edited))
	if err != nil || len(r.Conflicts) != 0 {
		t.Errorf("moved record: err %v conflicts %+v", err, r.Conflicts)
	}
}

// A JSON reflection holding another record's id is refused the same way.
func TestTwoJSONReflectionsAreRefused(t *testing.T) {
	base := `{"id": "r1", "lessons": [{"content": "a"}]}`
	ours := `{"id": "r1", "lessons": [{"content": "a"}, {"content": "b"}]}`
	theirs := `{"id": "r2", "lessons": [{"content": "a"}]}`
	_, err := File("context/reflections/pending/r2.json", []byte(base), []byte(ours), []byte(theirs))
	if !errors.As(err, new(*IdentityError)) {
		t.Fatalf("err %v", err)
	}
	if _, err := File("context/reflections/pending/r1.json", []byte(base), []byte(ours), []byte{}); !errors.As(err, new(*SideError)) {
		t.Fatalf("empty theirs: err %v", err)
	}
}

// An id a YAML reader reads through a merge key or an alias is the
// version's id, checked against the file name as any other.
func TestIdentityReadAsYAMLReadsIt(t *testing.T) {
	p := "memory/inbox/bar.md"
	with := func(lines ...string) []byte {
		return []byte("---\n" + strings.Join(append(lines, "type: fact", "ingestion_time: 2026-11-29T09:00:00Z"), "\n") + "\n---\nbody\n")
	}
	for name, front := range map[string][]string{
		"merge key": {"d: &d {id: foo}", "<<: *d"},
		"alias key": {"n: &k id", "*k : foo"},
	} {
		_, err := File(p, nil, with(front...), nil)
		var ie *IdentityError
		if !errors.As(err, &ie) || ie.IDs != [2]string{"bar", "foo"} {
			t.Errorf("%s: err %v, want the file name's bar against foo", name, err)
		}
	}
}
