package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A "---" line inside a YAML value never ends a record's frontmatter, on
// every path that writes one: a reflection read from a file, a --set value,
// an MCP patch.

func TestReflectionWithDashesKeepsEveryLesson(t *testing.T) {
	dir := memoryStore(t)
	refl := "---\nid: refl-dashes\nagent: agent-a\ntask: t\ncreated_at: 2026-11-20T10:00:00Z\nlessons:\n" +
		"  - content: |\n      Rotate the signing keys before a release.\n      ---\n      Keep the old key for a week.\n    category: strategy\n    confidence: 0.9\n" +
		"  - content: Run the flaky suite twice before reporting it.\n    category: testing\n    confidence: 0.9\n---\nA reflection.\n"
	f := filepath.Join(t.TempDir(), "r.md")
	write(t, f, []byte(refl))
	curator(t, dir, "context", "reflect", f)
	curator(t, dir, "context", "curate", "--quiet")
	var texts []string
	filepath.WalkDir(filepath.Join(dir, ".curator/context/bullets"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			data, _ := os.ReadFile(p)
			texts = append(texts, filepath.Base(filepath.Dir(p))+": "+string(data))
		}
		return nil
	})
	joined := strings.Join(texts, "\n")
	if len(texts) != 2 || !strings.Contains(joined, "Keep the old key for a week.") || !strings.Contains(joined, "testing: ") {
		t.Errorf("want two bullets, one with both lines of the first lesson and one under testing; got %d:\n%s", len(texts), joined)
	}
}

func TestSetValueWithSeveralDocumentsIsRefused(t *testing.T) {
	dir := memoryStore(t)
	curator(t, dir, "memory", "add", "--type", "fact", "--brief", "before", "--id", "m1", "--proximity", "0.5", "body")
	path := filepath.Join(dir, ".curator/memory/inbox/m1.md")
	before, _ := os.ReadFile(path)
	cmd := exec.Command("curator", "memory", "update", "m1", "--set", "brief=line1\n---\nINJECTED")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "more than one YAML document") {
		t.Errorf("want exit 2 naming the documents; got %v:\n%s", err, out)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("the refused update changed the record:\n%s", after)
	}
	// Quoted, the same text is one value and reads back whole.
	curator(t, dir, "memory", "update", "m1", "--set", `brief="line1\n---\nINJECTED"`)
	show := curator(t, dir, "memory", "show", "m1", "--json")
	if !strings.Contains(show, `line1\n---\nINJECTED`) {
		t.Errorf("brief did not read back whole:\n%s", show)
	}
}

func TestMCPPatchWithDashesReadsBack(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	call(t, cs, "add_memory", map[string]any{"id": "f-a", "type": "fact", "brief": "fact a", "author": "agent-a",
		"body": "the body\n", "content_confidence": 4,
		"importance_factors": map[string]any{"proximity": 0.9, "surprisal": 0.8, "entity_priority": 0.7, "unambiguity": 0.9}})
	call(t, cs, "update_long_term", map[string]any{"id": "f-a", "patch": map[string]any{"brief": "line1\n---\nINJECTED"}})
	got := call(t, cs, "get_memory", map[string]any{"id": "f-a"})
	if s := strings.ReplaceAll(strings.ReplaceAll(jsonText(t, got), " ", ""), "\n", ""); !strings.Contains(s, `"brief":"line1\n---\nINJECTED"`) || strings.Contains(s, `INJECTED\nthe body`) {
		t.Errorf("the patched brief did not read back whole, or leaked into the body: %s", jsonText(t, got))
	}
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
