package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// accessStore is a store whose config.yaml gives worker level 2 and lead
// level 4, with one pending reflection.
func accessStore(t *testing.T) string {
	t.Helper()
	dir := memoryStore(t)
	cfg := filepath.Join(dir, ".curator", "config.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "access:\n  default_level: 1\n  agents:\n    worker: 2\n    lead: 4\n"...)
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, dir, "commit", "-q", "-am", "access levels")
	refl := filepath.Join(dir, "refl.json")
	os.WriteFile(refl, []byte(`{"id": "refl-1", "agent": "worker", "lessons": [{"content": "Tag the release commit only after the full test suite passes on main.", "category": "strategy", "confidence": 0.9}]}`), 0o644)
	curator(t, dir, "context", "reflect", refl)
	return dir
}

// TestMCPAccessLevels: an MCP client is the agent its name says; below
// level 4 curate_playbook and review_queue decisions are refused naming
// the agent, its level and the level needed, and nothing is committed.
func TestMCPAccessLevels(t *testing.T) {
	dir := accessStore(t)
	head := mustGit(t, dir, "rev-parse", "HEAD")

	cs := mcpSessionAs(t, dir, "worker", cmdutil.Globals{})
	msg := callErr(t, cs, "curate_playbook", map[string]any{"dry_run": false})
	wantMessage(t, "curate_playbook as worker", msg, "permission denied", `agent "worker" has access level 2`,
		"curating the playbook needs level 4 (project)", "nothing was changed")
	msg = callErr(t, cs, "review_queue", map[string]any{"decision": "approve", "all": true})
	wantMessage(t, "review_queue as worker", msg, `agent "worker" has access level 2`, "reviewing bullets needs level 4")
	// a dry run and the read-only tools are open to every level
	if rep := call(t, cs, "curate_playbook", map[string]any{}); rep["dry_run"] != true {
		t.Errorf("dry run as worker: %v", rep)
	}
	call(t, cs, "playbook_stats", nil)
	if got := mustGit(t, dir, "rev-parse", "HEAD"); got != head {
		t.Fatalf("a refused call committed: HEAD %s, was %s", got, head)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/context/reflections/pending/refl-1.json")); err != nil {
		t.Fatalf("the pending reflection: %v", err)
	}

	// --agent of `curator mcp` wins over the client's name
	cs = mcpSessionAs(t, dir, "lead", cmdutil.Globals{Agent: "worker"})
	wantMessage(t, "curate_playbook as --agent worker", callErr(t, cs, "curate_playbook", map[string]any{"dry_run": false}), `agent "worker"`)

	// level 4 curates
	cs = mcpSessionAs(t, dir, "lead", cmdutil.Globals{})
	rep := call(t, cs, "curate_playbook", map[string]any{"dry_run": false})
	if c, _ := rep["commit"].(string); c == "" || strings.Contains(c, " ") {
		t.Fatalf("curate_playbook as lead: %v", rep)
	}
}
