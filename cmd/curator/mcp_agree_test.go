package main

import (
	"strings"
	"testing"
)

// TestMCPRefusesAsTheCommand: a request the command line refuses is
// refused by its MCP tool with the same words (the command naming its
// flag, the tool its parameter), both from the one check of the use-case.
func TestMCPRefusesAsTheCommand(t *testing.T) {
	dir := memoryStore(t)
	t.Chdir(dir)
	cs := mcpSession(t, dir)
	for _, c := range []struct {
		what      string
		args      []string
		tool      string
		toolArgs  map[string]any
		cmd, call string
	}{
		{"an empty task", []string{"context", "inject", "--for", " "}, "inject_playbook", map[string]any{"for": " "},
			"--for needs the task's text", "invalid arguments: for needs the task's text"},
		{"a confidence of 9", []string{"memory", "add", "--type", "fact", "--brief", "b", "--confidence", "9"},
			"add_memory", map[string]any{"type": "fact", "brief": "b", "content_confidence": 9},
			"--confidence 9: want 1 to 5", "invalid arguments: content_confidence 9: want 1 to 5"},
		{"a decision of maybe", nil, "review_queue", map[string]any{"decision": "maybe"},
			"", `invalid arguments: decision "maybe": want approve or reject`},
	} {
		if c.args != nil {
			code, stderr := curatorExit(t, dir, c.args...)
			if code != 2 || !strings.Contains(stderr, c.cmd) {
				t.Errorf("%s: curator %s: exit %d, stderr %q; want exit 2 saying %q", c.what, strings.Join(c.args, " "), code, stderr, c.cmd)
			}
		}
		if msg := callErr(t, cs, c.tool, c.toolArgs); !strings.Contains(msg, c.call) {
			t.Errorf("%s: %s says %q, want %q", c.what, c.tool, msg, c.call)
		}
	}
}

// TestMCPWarnsAsTheCommand: a memory added without importance factors is
// stored, and both the command and the MCP tool say the next pass will
// trash it; with a factor neither says so.
func TestMCPWarnsAsTheCommand(t *testing.T) {
	dir := memoryStore(t)
	t.Chdir(dir)
	cs := mcpSession(t, dir)
	const warning = "has no importance factors, so it scores 0 and the next memory curate pass will trash it"
	if _, stderr := curatorExit(t, dir, "memory", "add", "--type", "fact", "--id", "f-cli", "--brief", "no factors"); !strings.Contains(stderr, "f-cli "+warning) {
		t.Errorf("memory add without factors: stderr %q, want the warning", stderr)
	}
	got := call(t, cs, "add_memory", map[string]any{"type": "fact", "id": "f-mcp", "brief": "no factors"})
	if ws, _ := got["warnings"].([]any); len(ws) != 1 || ws[0] != "f-mcp "+warning {
		t.Errorf("add_memory without factors: %v, want the warning", got)
	}
	got = call(t, cs, "add_memory", map[string]any{"type": "fact", "id": "f-scored", "brief": "a factor", "importance_factors": map[string]any{"proximity": 0.9}})
	if _, ok := got["warnings"]; ok || got["id"] != "f-scored" {
		t.Errorf("add_memory with a factor: %v, want no warning", got)
	}
}
