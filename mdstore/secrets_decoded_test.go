package mdstore

import (
	"testing"
)

// Escapes hide text from a scan of raw bytes; DecodedFields shows each
// string as it reads once decoded, named by its place.
func TestDecodedFields(t *testing.T) {
	find := func(name, data string) map[string]string {
		got := map[string]string{}
		for _, f := range DecodedFields(name, []byte(data)) {
			got[f.Name] = f.Text
		}
		return got
	}
	if got := find("pending/r.json", `{"id":"r","lessons":[{"content":"plain"}]}`); len(got) != 0 {
		t.Errorf("no backslash, want nothing: %v", got)
	}
	got := find("pending/r.json", `{"id":"r","source":"AK\u0049A","lessons":[{"reasoning":"x\u0041y"}]}`)
	if got["source"] != "AKIA" || got["lessons[0].reasoning"] != "xAy" {
		t.Errorf("json: %v", got)
	}
	got = find("log.jsonl", "{\"a\":\"1\"}\n{\"b\":\"\\u0042\"}\n")
	if got["line 2.b"] != "B" {
		t.Errorf("jsonl: %v", got)
	}
	got = find("memory/inbox/m.md", "---\nid: m\nbrief: \"k\\x41y\"\n---\nbody \\ text\n")
	if got["brief"] != "kAy" {
		t.Errorf("frontmatter: %v", got)
	}
	if got := find("notes.md", "no frontmatter \\ here\n"); len(got) != 0 {
		t.Errorf("plain markdown: %v", got)
	}
}
