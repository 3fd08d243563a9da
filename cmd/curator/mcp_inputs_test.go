package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A patch's keys are text that is written (into the file and the commit
// message) as much as its values: a secret in a key is refused, and the
// file and the history never see it.
func TestMCPPatchKeysAreScanned(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	call(t, cs, "add_memory", map[string]any{"id": "f-a", "type": "fact", "brief": "plain fact", "author": "a", "body": "b"})
	for _, patch := range []map[string]any{
		{"AKIAQWJ4ZT7NRX5LBV2M": 1},
		{"k_AKIAIOSFODNN7EXAMPLQ": "x"},
		{"notes": map[string]any{"token_ghp_R8kd93LmQz7XwP2vB5nT6yH1cJ4aF0sE9gUi": "x"}},
	} {
		msg := callErr(t, cs, "update_long_term", map[string]any{"id": "f-a", "patch": patch})
		if !strings.Contains(msg, "secret") || strings.Contains(msg, "AKIA") || strings.Contains(msg, "ghp_") {
			t.Errorf("patch %v: message %q (want a secret refused, never printed)", patch, msg)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".curator/memory/inbox/f-a.md"))
	if err != nil || strings.Contains(string(data), "AKIA") || strings.Contains(string(data), "ghp_") {
		t.Errorf("the file holds a refused key (%v):\n%s", err, data)
	}
	if log := mustGit(t, dir, "log", "--format=%B"); strings.Contains(log, "AKIA") || strings.Contains(log, "ghp_") {
		t.Errorf("the history holds a refused key:\n%s", log)
	}
}

// Ids that read as another id (spaces around them, bidi controls, invisible
// characters) are refused with the reason, by the tools as by the CLI.
func TestMCPRefusesInvisibleIDs(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	call(t, cs, "add_memory", map[string]any{"id": "f-a", "type": "fact", "brief": "plain fact", "author": "a", "body": "b"})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"add_memory", map[string]any{"id": " f-b", "type": "fact", "brief": "x", "author": "a"}, "starts with a space"},
		{"add_memory", map[string]any{"id": "f-b ", "type": "fact", "brief": "x", "author": "a"}, "ends with a space"},
		{"add_memory", map[string]any{"id": "f-\u202eb", "type": "fact", "brief": "x", "author": "a"}, "U+202E"},
		{"add_memory", map[string]any{"id": "f\u200b-b", "type": "fact", "brief": "x", "author": "a"}, "U+200B"},
		{"get_memory", map[string]any{"id": "f-a\u2066"}, "U+2066"},
		{"update_long_term", map[string]any{"id": " f-a", "patch": map[string]any{"brief": "y"}}, "starts with a space"},
		{"delete_memory", map[string]any{"id": "f-a\t"}, "ends with a space"},
	} {
		if msg := callErr(t, cs, c.tool, c.args); !strings.Contains(msg, c.want) {
			t.Errorf("%s(%q): message %q does not say %q", c.tool, c.args["id"], msg, c.want)
		}
	}
	entries, _ := filepath.Glob(filepath.Join(dir, ".curator/memory/inbox/*.md"))
	if len(entries) != 1 {
		t.Errorf("inbox holds %d files, want only f-a.md: %q", len(entries), entries)
	}
	cmd := exec.Command("curator", "memory", "show", "f-\u202ea")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "U+202E") {
		t.Errorf("memory show with a bidi control in the id: %v\n%s", err, out)
	}
}
