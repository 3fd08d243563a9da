package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
