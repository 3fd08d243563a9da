package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The memory tools and `curator memory …` run one set of checks: what the
// command line refuses as a usage error (exit 2) a tool answers as
// invalid arguments, what it blocks (exit 3) as refused, and a tool's
// defaults are the command's.
func TestMCPMemoryChecksAreTheCLIs(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	for _, c := range []struct {
		tool string
		args map[string]any
		cli  []string
		want string
		exit int
	}{
		{"add_memory", map[string]any{"id": "f-c", "type": "fact", "brief": "x", "content_confidence": 9},
			[]string{"memory", "add", "--id", "f-c", "--type", "fact", "--brief", "x", "--confidence", "9"}, "invalid arguments: ", 2},
		{"add_memory", map[string]any{"id": "f-p", "type": "fact", "brief": "x", "importance_factors": map[string]any{"proximity": 1.5}},
			[]string{"memory", "add", "--id", "f-p", "--type", "fact", "--brief", "x", "--proximity", "1.5"}, "invalid arguments: ", 2},
		{"add_memory", map[string]any{"id": "f-t", "type": "opinion", "brief": "x"},
			[]string{"memory", "add", "--id", "f-t", "--type", "opinion", "--brief", "x"}, "invalid arguments: ", 2},
		{"add_memory", map[string]any{"id": "f-s", "type": "fact", "brief": "key AKIAQWJ4ZT7NRX5LBV2M here"},
			[]string{"memory", "add", "--id", "f-s", "--type", "fact", "--brief", "key AKIAQWJ4ZT7NRX5LBV2M here"}, "refused: ", 3},
		{"curate_memory", map[string]any{"task": "整理范围：2026-11-29T09:00:00Z 到 2026-11-29T10:00:00Z", "ingestion_time_start": "2026-11-29T09:00:00Z"},
			[]string{"memory", "curate", "--task", "整理范围：2026-11-29T09:00:00Z 到 2026-11-29T10:00:00Z", "--from", "2026-11-29T09:00:00Z"}, "invalid arguments: ", 2},
	} {
		if msg := callErr(t, cs, c.tool, c.args); !strings.HasPrefix(msg, c.want) {
			t.Errorf("%s(%v): %q, want it to start with %q", c.tool, c.args, msg, c.want)
		}
		cmd := exec.Command("curator", c.cli...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != c.exit {
			t.Errorf("curator %q: %v, want exit %d\n%s", c.cli, err, c.exit, out)
		}
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, ".curator/memory/inbox/*.md")); len(entries) != 0 {
		t.Errorf("refused memories were written: %q", entries)
	}

	// promote_to_rule without an author: the rule's author is curator, as
	// with `memory promote-rule`.
	for i, brief := range []string{"retry the flaky job", "pin the runner image", "cache the modules"} {
		call(t, cs, "add_memory", map[string]any{"id": "l-" + string(rune('a'+i)), "type": "lesson", "brief": brief, "author": "agent", "scenario": "flaky CI"})
	}
	rule := call(t, cs, "promote_to_rule", map[string]any{"scenario": "flaky CI"})
	id, _ := rule["id"].(string)
	data, err := os.ReadFile(filepath.Join(dir, ".curator/memory/confirmed/lesson", id+".md"))
	if err != nil || !strings.Contains(string(data), "\nauthor: curator\n") {
		t.Errorf("the rule %v: %v\n%s", rule, err, data)
	}
}

// update_long_term never makes a single case a rule: the error names
// promote_to_rule, and the file is left as it was.
func TestMCPUpdateRefusesMaturityRule(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	call(t, cs, "add_memory", map[string]any{"id": "l-1", "type": "lesson", "brief": "retry the flaky job", "author": "agent", "scenario": "flaky CI"})
	path := filepath.Join(dir, ".curator/memory/inbox/l-1.md")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	msg := callErr(t, cs, "update_long_term", map[string]any{"id": "l-1", "patch": map[string]any{"maturity": "rule"}})
	if !strings.Contains(msg, "promote_to_rule") || !strings.Contains(msg, "l-1") {
		t.Errorf("message %q does not name promote_to_rule and the case", msg)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("the refused update changed the file:\n%s", after)
	}
}

// list_entries and `memory list` refuse a status or type with one check
// and one message: the tool's is the command's after "invalid arguments: ".
func TestMCPListEntriesChecksAreMemoryLists(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	for _, c := range []struct {
		args map[string]any
		cli  []string
	}{
		{map[string]any{"status": "nowhere"}, []string{"memory", "list", "--status", "nowhere"}},
		{map[string]any{"status": "confirmed", "type": "rule"}, []string{"memory", "list", "--type", "rule"}},
		{map[string]any{"status": "inbox", "type": "opinion"}, []string{"memory", "list", "--type", "opinion"}},
	} {
		msg := callErr(t, cs, "list_entries", c.args)
		cmd := exec.Command("curator", c.cli...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("curator %q: %v, want exit 2\n%s", c.cli, err, out)
		}
		line, _, _ := strings.Cut(string(out), "\n")
		if want := "invalid arguments: " + strings.TrimPrefix(line, "curator: "); msg != want {
			t.Errorf("list_entries(%v): %q, want the command's %q", c.args, msg, want)
		}
	}
}
