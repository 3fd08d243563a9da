package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBulletWithoutFrontmatterLeftUntouched: a bullet file whose
// frontmatter cannot be found (a byte-order mark before its ---, an empty
// file, plain text) is named as invalid input and left as it is; a
// maintenance pass once took it for a bullet of default fields and wrote a
// new frontmatter in front of it.
func TestBulletWithoutFrontmatterLeftUntouched(t *testing.T) {
	dir := memoryStore(t)
	b := filepath.Join(dir, ".curator/context/bullets/strategy")
	if err := os.MkdirAll(b, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"STRAT-001.md": []byte("\xef\xbb\xbf---\nid: STRAT-001\ncategory: strategy\nconfidence: 0.9\npriority: 9\nhelpful_count: 12\n---\nAlways run the full test suite.\n"),
		"STRAT-002.md": {},
		"STRAT-003.md": []byte("Only a sentence, no fields.\n"),
		"STRAT-004.md": []byte("---\nid: STRAT-004\ncategory: strategy\nconfidence: 0.8\npriority: 6\n---\nRead the error message before changing code.\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(b, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stderr := curatorExit(t, dir, "context", "curate", "--maintenance")
	if code != 5 {
		t.Errorf("context curate --maintenance: exit %d, want 5 (invalid inputs skipped)\n%s", code, stderr)
	}
	for _, name := range []string{"STRAT-001.md", "STRAT-002.md", "STRAT-003.md"} {
		if !strings.Contains(stderr, "context/bullets/strategy/"+name) {
			t.Errorf("%s is not named:\n%s", name, stderr)
		}
	}
	if !strings.Contains(stderr, "byte-order mark") {
		t.Errorf("the byte-order mark is not said:\n%s", stderr)
	}
	for name, data := range files {
		if name == "STRAT-004.md" {
			continue
		}
		got, err := os.ReadFile(filepath.Join(b, name))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s changed: %q, want %q (%v)", name, got, data, err)
		}
	}
}

// TestBulletsSharingAnIDNamedAndLeftAlone: two files with one id (two
// categories, or bullets/ and archive/) are both named as invalid input
// and neither is read or written; a query once showed one of them and
// hid the other, and a curation reinforced whichever it kept.
func TestBulletsSharingAnIDNamedAndLeftAlone(t *testing.T) {
	dir := memoryStore(t)
	bullet := func(cat, id, text string) []byte {
		return []byte("---\nid: " + id + "\ncategory: " + cat + "\nconfidence: 0.8\npriority: 6\nhelpful_count: 2\n---\n" + text + "\n")
	}
	files := map[string][]byte{
		"context/bullets/strategy/STRAT-001.md": bullet("strategy", "STRAT-001", "Run the whole test suite before every commit."),
		"context/bullets/api/STRAT-001.md":      bullet("api", "STRAT-001", "Page through list endpoints until the cursor is empty."),
		"context/bullets/strategy/STRAT-002.md": bullet("strategy", "STRAT-002", "Read the error message before changing any code."),
		"context/archive/strategy/STRAT-002.md": bullet("strategy", "STRAT-002", "Read the error message before changing any code."),
		"context/bullets/strategy/STRAT-003.md": bullet("strategy", "STRAT-003", "Write the failing test first."),
	}
	for rel, data := range files {
		p := filepath.Join(dir, ".curator", rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"context", "query"}, {"context", "stats"}, {"context", "export", "--format", "ace"}} {
		code, stderr := curatorExit(t, dir, args...)
		if code != 5 {
			t.Errorf("%v: exit %d, want 5\n%s", args, code, stderr)
		}
		for rel := range files {
			if shared := !strings.Contains(rel, "STRAT-003"); shared != strings.Contains(stderr, rel) {
				t.Errorf("%v: %s named %v, want %v:\n%s", args, rel, !shared, shared, stderr)
			}
		}
	}
	q := exec.Command("curator", "--json", "context", "query", "--text", "page through list endpoints until the cursor is empty")
	q.Dir = dir
	outb, _ := q.Output() // exit 5: the files are named
	out := string(outb)
	if !strings.Contains(out, `"bullets": []`) || strings.Contains(out, `"id": "STRAT-00`) {
		t.Errorf("a bullet whose id another file has is answered:\n%s", out)
	}
	// The MCP server's kept playbook names them on every answer, not only
	// on the one that read them.
	past := time.Now().Add(-time.Hour) // folders not changed lately: the playbook is kept
	for _, d := range []string{"bullets/strategy", "bullets/api", "archive/strategy", "bullets", "archive"} {
		os.Chtimes(filepath.Join(dir, ".curator/context", d), past, past)
	}
	cs := mcpSession(t, dir)
	for i := range 2 {
		res := call(t, cs, "query_playbook", map[string]any{"text": "run the whole test suite"})
		if inv, _ := res["invalid"].([]any); len(inv) != 4 {
			t.Errorf("query_playbook call %d: %d invalid files named, want 4: %v", i+1, len(inv), res["invalid"])
		}
	}
	refl := filepath.Join(t.TempDir(), "r.md")
	os.WriteFile(refl, []byte("---\nid: r-1\nlessons:\n  - content: Page through list endpoints until the cursor is empty.\n    category: api\n    confidence: 0.9\n---\n"), 0o644)
	curator(t, dir, "context", "reflect", refl)
	// a lesson that repeats one of them waits too: matched without them,
	// it would become a third bullet of the same text
	if code, stderr := curatorExit(t, dir, "context", "curate"); code != 5 || !strings.Contains(stderr, "lesson 1 repeats STRAT-001 (similarity 1.00 to context/bullets/api/STRAT-001.md), an id that more than one bullet file has") {
		t.Errorf("context curate of a lesson repeating a shared id: exit %d, want 5 naming it\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/context/reflections/pending/r-1.md")); err != nil {
		t.Errorf("the reflection repeating a shared id's bullet is not pending: %v", err)
	}
	if made, _ := filepath.Glob(filepath.Join(dir, ".curator/context/bullets/*/*.md")); len(made) != 4 {
		t.Errorf("bullet files after the curation: %v, want the 4 there were", made)
	}
	// a reflection that marks one of them helpful waits: its feedback is
	// not lost, nor given to a guess
	refl2 := filepath.Join(t.TempDir(), "r2.md")
	os.WriteFile(refl2, []byte("---\nid: r-2\nhelpful_bullets: [STRAT-001]\nlessons:\n  - content: Keep the build green on the main branch.\n    category: strategy\n    confidence: 0.9\n---\n"), 0o644)
	curator(t, dir, "context", "reflect", refl2)
	code, stderr := curatorExit(t, dir, "context", "curate")
	if code != 5 || !strings.Contains(stderr, "helpful_bullets names STRAT-001, an id that more than one bullet file has") {
		t.Errorf("context curate of a reflection naming a shared id: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/context/reflections/pending/r-2.md")); err != nil {
		t.Errorf("the reflection naming a shared id is not pending: %v", err)
	}
	// the same text filed in a category that has bullets of its own is
	// matched with those alone, as it would be after the rename: curated
	refl3 := filepath.Join(t.TempDir(), "r3.md")
	os.WriteFile(refl3, []byte("---\nid: r-3\nlessons:\n  - content: Page through list endpoints until the cursor is empty.\n    category: strategy\n    confidence: 0.9\n---\n"), 0o644)
	curator(t, dir, "context", "reflect", refl3)
	if code, stderr := curatorExit(t, dir, "context", "curate"); code != 5 || strings.Contains(stderr, "r-3") {
		t.Errorf("context curate of a lesson in a category with bullets of its own: exit %d, want 5 without holding r-3\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/context/reflections/merged/r-3.md")); err != nil {
		t.Errorf("the reflection whose lesson is matched in its own category is not merged: %v", err)
	}
	for rel, data := range files {
		if got, _ := os.ReadFile(filepath.Join(dir, ".curator", rel)); rel != "context/bullets/strategy/STRAT-003.md" && !bytes.Equal(got, data) {
			t.Errorf("%s changed:\n%s", rel, got)
		}
	}
}
