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
