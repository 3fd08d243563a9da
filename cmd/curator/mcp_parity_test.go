package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// These tests hold the tools an agent without a shell needs against the
// commands they stand for: the same use-case, the same checks, the same
// report as the command's --json.

// cliJSON runs `curator --json args...` in dir and returns what it printed.
func cliJSON(t *testing.T, dir string, args ...string) map[string]any {
	t.Helper()
	out := curator(t, dir, append([]string{"--json"}, args...)...)
	res := map[string]any{}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("curator %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return res
}

var (
	reportTime = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	reportHash = regexp.MustCompile(`\b[0-9a-f]{40}\b`)
	reportUUID = regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
)

// briefSize are the fields of a brief's budget that count its text, which
// holds times.
var briefSize = map[string]bool{"tokens": true, "raw_tokens": true, "remaining": true, "used_percent": true}

// normalized is a report with what differs between two runs of the same
// request in two stores made alike taken out: the store's folder, times
// (and the size of a brief that holds them), commit hashes and pipeline
// ids.
func normalized(v any, dir string) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if _, n := e.(float64); n && briefSize[k] {
				e = "<size>"
			}
			out[k] = normalized(e, dir)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalized(e, dir)
		}
		return out
	case string:
		v = strings.ReplaceAll(v, dir, "<dir>")
		v = reportTime.ReplaceAllString(v, "<time>")
		v = reportHash.ReplaceAllString(v, "<commit>")
		return reportUUID.ReplaceAllString(v, "<id>")
	}
	return v
}

// sameReport fails unless the tool's result is the command's report.
func sameReport(t *testing.T, what string, tool map[string]any, toolDir string, cli map[string]any, cliDir string) {
	t.Helper()
	got, want := normalized(tool, toolDir), normalized(cli, cliDir)
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		w, _ := json.MarshalIndent(want, "", "  ")
		t.Errorf("%s: the tool's result is not the command's --json report\ntool:\n%s\ncommand:\n%s", what, g, w)
	}
}

// applyStore is a store whose playbook holds STRAT-001, with the
// reflections refl-next and refl-other pending (context_prompt_apply's).
func applyStore(t *testing.T) string {
	t.Helper()
	dir := memoryStore(t)
	for _, name := range []string{"seed.md", "next.md", "other.md", "answer.json", "bad-answer.json"} {
		write(t, filepath.Join(dir, name), scriptFile(t, "context_prompt_apply.txtar", name))
	}
	curator(t, dir, "context", "reflect", "seed.md")
	curator(t, dir, "context", "curate")
	curator(t, dir, "context", "reflect", "next.md")
	curator(t, dir, "context", "reflect", "other.md")
	return dir
}

// TestMCPApplyCuration: the curate_reflection prompt's answer is applied
// by apply_curation as `context apply` applies it: a dry run reports the
// command's actions, a refused answer writes nothing, an applied one is
// one commit and the reflection is merged.
func TestMCPApplyCuration(t *testing.T) {
	dir := applyStore(t)
	cs := mcpSession(t, dir)
	answer := string(scriptFile(t, "context_prompt_apply.txtar", "answer.json"))
	pending := filepath.Join(dir, ".curator/context/reflections/pending/refl-next.md")

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	prompt, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "curate_reflection", Arguments: map[string]string{"reflection_id": "refl-next"}})
	if err != nil || len(prompt.Messages) != 1 || !strings.Contains(prompt.Messages[0].Content.(*mcp.TextContent).Text, `"curation_actions"`) {
		t.Fatalf("curate_reflection: %v %v", prompt, err)
	}

	before := commits(t, dir)
	dry := call(t, cs, "apply_curation", map[string]any{"answer": answer, "reflection_id": "refl-next", "dry_run": true})
	sameReport(t, "apply_curation (dry run)", dry, dir, cliJSON(t, dir, "context", "apply", "--dry-run", "--reflection-id", "refl-next", "answer.json"), dir)
	if dry["dry_run"] != true || dry["commit"] != "" || len(dry["actions"].([]any)) != 2 {
		t.Fatalf("apply_curation (dry run): %v", dry)
	}

	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"answer": " "}, []string{"invalid arguments", "answer is empty"}},
		{map[string]any{}, []string{"answer"}},
		{map[string]any{"answer": string(scriptFile(t, "context_prompt_apply.txtar", "bad-answer.json"))},
			[]string{"refused: answer", "curation_actions[0] (merge_similar): merged_content is missing", `"STRAT-099": no such bullet`, "nothing was written"}},
		{map[string]any{"answer": answer, "reflection_id": "refl-nope"}, []string{"invalid arguments", "reflection_id", "refl-nope"}},
		{map[string]any{"answer": answer, "reflection_id": "../refl-next"}, []string{"invalid arguments", "reflection_id"}},
		{map[string]any{"answer": answer, "dry_run": "yes"}, []string{"dry_run"}},
	} {
		wantMessage(t, "apply_curation", callErr(t, cs, "apply_curation", c.args), c.want...)
	}
	if n := commits(t, dir); n != before {
		t.Fatalf("a dry run and refused answers made %d commits", n-before)
	}
	if _, err := os.Stat(pending); err != nil {
		t.Fatalf("the reflection is no longer pending: %v", err)
	}

	// Applied (dry_run left out): one commit, the reflection merged.
	res := call(t, cs, "apply_curation", map[string]any{"answer": answer})
	if c, _ := res["commit"].(string); len(c) != 40 || res["dry_run"] != false {
		t.Fatalf("apply_curation: %v", res)
	}
	if merged, _ := res["reflections_merged"].([]any); len(merged) != 1 || merged[0] != "refl-next" {
		t.Errorf("reflections_merged: %v", res["reflections_merged"])
	}
	if n := commits(t, dir); n != before+1 {
		t.Errorf("apply_curation made %d commits, want 1", n-before)
	}
	for _, f := range []string{"bullets/strategy/STRAT-001-v2.md", "archive/strategy/STRAT-001.md", "bullets/api/API-001.md", "reflections/merged/refl-next.md"} {
		if _, err := os.Stat(filepath.Join(dir, ".curator/context", f)); err != nil {
			t.Errorf("after apply_curation: %v", err)
		}
	}
	if _, err := os.Stat(pending); !os.IsNotExist(err) {
		t.Errorf("refl-next is still pending")
	}
	if msg := mustGit(t, dir, "log", "-1", "--format=%B"); !strings.Contains(msg, "context apply") || !strings.Contains(msg, "curator mcp apply_curation") {
		t.Errorf("the commit message:\n%s", msg)
	}
}

// TestMCPApplyCurationAccess: below level 4 an answer is refused naming
// the agent and nothing is committed; a dry run is open to every level.
func TestMCPApplyCurationAccess(t *testing.T) {
	dir := accessStore(t)
	head := mustGit(t, dir, "rev-parse", "HEAD")
	answer := `{"curation_actions": [{"action": "new_bullet", "category": "strategy", "reflection_id": "refl-1",
		"merged_content": "Tag the release commit only after the full test suite passes on main."}]}`
	cs := mcpSessionAs(t, dir, "worker", cmdutil.Globals{})
	wantMessage(t, "apply_curation as worker", callErr(t, cs, "apply_curation", map[string]any{"answer": answer}),
		"permission denied", `agent "worker" has access level 2`, "needs level 4")
	if rep := call(t, cs, "apply_curation", map[string]any{"answer": answer, "dry_run": true}); rep["dry_run"] != true {
		t.Errorf("dry run as worker: %v", rep)
	}
	if got := mustGit(t, dir, "rev-parse", "HEAD"); got != head {
		t.Fatalf("a refused call committed")
	}
	cs = mcpSessionAs(t, dir, "lead", cmdutil.Globals{})
	if rep := call(t, cs, "apply_curation", map[string]any{"answer": answer}); rep["commit"] == "" {
		t.Fatalf("apply_curation as lead: %v", rep)
	}
}

// TestMCPInjectPlaybook: inject_playbook writes the block `context inject`
// writes, into a markdown file of the server's working directory, and
// refuses what the command refuses and any file outside that folder.
func TestMCPInjectPlaybook(t *testing.T) {
	dir := applyStore(t)
	curator(t, dir, "context", "apply", "answer.json")
	t.Chdir(dir)
	cs := mcpSession(t, dir)

	want := cliJSON(t, dir, "context", "inject", "--file", "CLAUDE.md", "--top", "5")
	res := call(t, cs, "inject_playbook", map[string]any{"file": "AGENTS.md", "top": 5})
	want["file"] = "AGENTS.md"
	sameReport(t, "inject_playbook", res, dir, want, dir)
	if res["changed"] != true || res["bullets"].(float64) != 2 {
		t.Fatalf("inject_playbook: %v", res)
	}
	claude, _ := os.ReadFile(filepath.Join(dir, "CLAUDE.md"))
	agents, _ := os.ReadFile(filepath.Join(dir, "AGENTS.md"))
	if len(agents) == 0 || string(agents) != string(claude) {
		t.Errorf("AGENTS.md:\n%s\nCLAUDE.md (the command's):\n%s", agents, claude)
	}
	if again := call(t, cs, "inject_playbook", map[string]any{"file": "AGENTS.md", "top": 5}); again["changed"] != false {
		t.Errorf("the same playbook again: %v", again)
	}
	// the defaults are the command's: CLAUDE.md, 20 bullets
	if res := call(t, cs, "inject_playbook", map[string]any{"category": "API"}); res["file"] != "CLAUDE.md" || res["bullets"].(float64) != 1 {
		t.Errorf("inject_playbook (defaults, category API): %v", res)
	}

	// for: the bullets most relevant to a task, as `context inject --for`
	task := "compare the product lists of every result page"
	want = cliJSON(t, dir, "context", "inject", "--file", "TASK.md", "--for", task)
	res = call(t, cs, "inject_playbook", map[string]any{"file": "TASK-MCP.md", "for": task})
	want["file"] = "TASK-MCP.md"
	sameReport(t, "inject_playbook (for)", res, dir, want, dir)
	if block, _ := os.ReadFile(filepath.Join(dir, "TASK-MCP.md")); !strings.Contains(string(block), "Selected for: "+task) ||
		!strings.Contains(string(block), "page through every result page") || res["bullets"].(float64) != 1 {
		t.Errorf("inject_playbook for a task: %v\n%s", res, block)
	}
	wantMessage(t, "inject_playbook (empty for)", callErr(t, cs, "inject_playbook", map[string]any{"for": " "}), "invalid arguments", "for")

	outside := t.TempDir()
	write(t, filepath.Join(outside, "notes.md"), []byte("# notes\n"))
	os.Symlink(filepath.Join(outside, "notes.md"), filepath.Join(dir, "linked.md"))
	os.Symlink(outside, filepath.Join(dir, "out"))
	os.Symlink(filepath.Join(dir, ".curator/context"), filepath.Join(dir, "ctx"))
	write(t, filepath.Join(dir, "half.md"), []byte("<!-- curator:begin -->\n"))
	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"top": 0}, []string{"invalid arguments", "top", "at least 1"}},
		{map[string]any{"file": "../notes.md"}, []string{"invalid arguments", "../notes.md", "inside"}},
		{map[string]any{"file": filepath.Join(outside, "notes.md")}, []string{"invalid arguments", "notes.md", "inside"}},
		{map[string]any{"file": "linked.md"}, []string{"linked.md", "outside"}},
		{map[string]any{"file": "out/new/notes.md"}, []string{"out/new/notes.md", "outside"}},
		{map[string]any{"file": ".curator/context/bullets/api/API-001.md"}, []string{"invalid arguments", "in the store"}},
		{map[string]any{"file": "ctx/bullets/api/API-001.md"}, []string{"invalid arguments", "in the store"}},
		{map[string]any{"file": "ctx/notes.md"}, []string{"invalid arguments", "in the store"}},
		{map[string]any{"file": "run.sh"}, []string{"invalid arguments", "run.sh", ".md"}},
		{map[string]any{"file": "half.md"}, []string{"refused", "half.md", "only one of"}},
	} {
		wantMessage(t, "inject_playbook", callErr(t, cs, "inject_playbook", c.args), c.want...)
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "notes.md")); string(data) != "# notes\n" {
		t.Errorf("a file outside the working directory was written:\n%s", data)
	}
	for _, p := range []string{filepath.Join(dir, "run.sh"), filepath.Join(outside, "new")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}

// TestMCPPipelineModes runs hold, continue, refresh, skip, restart and
// resume through the MCP tools in one store and through the commands in
// another made alike: the results are the commands' reports.
func TestMCPPipelineModes(t *testing.T) {
	cliDir, _ := pipelineStore(t)
	dir, _ := pipelineStore(t)
	t.Chdir(dir)
	cs := mcpSession(t, dir)
	before := commits(t, dir)

	for _, step := range []struct {
		tool string
		args map[string]any
		cli  []string
	}{
		{"pipeline_hold", map[string]any{"project": "shop", "reason": "waiting for the payment provider sandbox"},
			[]string{"pipeline", "hold", "--project", "shop", "--reason", "waiting for the payment provider sandbox"}},
		{"pipeline_continue", map[string]any{"project": "shop"}, []string{"pipeline", "continue", "--project", "shop"}},
		{"pipeline_refresh", map[string]any{}, []string{"pipeline", "refresh"}},
		{"pipeline_skip", map[string]any{"project": "shop", "phase": "implementer", "reason": "implemented by hand"},
			[]string{"pipeline", "skip", "--project", "shop", "--phase", "implementer", "--reason", "implemented by hand"}},
		{"pipeline_restart", map[string]any{"project": "shop", "phase": "implementer"},
			[]string{"pipeline", "restart", "--project", "shop", "--phase", "implementer"}},
		{"pipeline_resume", map[string]any{"project": "shop", "pipeline": "sdd"}, []string{"pipeline", "resume", "--project", "shop", "--pipeline", "sdd"}},
	} {
		res := call(t, cs, step.tool, step.args)
		sameReport(t, step.tool, res, dir, cliJSON(t, cliDir, step.cli...), cliDir)
		if c, _ := res["commit"].(string); len(c) != 40 {
			t.Errorf("%s: commit %q", step.tool, res["commit"])
		}
	}
	if n := commits(t, dir); n != before+6 {
		t.Errorf("six calls made %d commits", n-before)
	}

	before = commits(t, dir)
	for _, c := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"pipeline_continue", map[string]any{"project": "shop"}, []string{"not on hold"}},
		{"pipeline_restart", map[string]any{"project": "shop"}, []string{"phase"}},
		{"pipeline_skip", map[string]any{"project": "shop", "phase": " "}, []string{"invalid arguments", "phase"}},
		{"pipeline_skip", map[string]any{"project": "shop", "phase": "tester"}, []string{"invalid arguments", "tester"}},
		{"pipeline_hold", map[string]any{"project": "../shop"}, []string{"invalid arguments", "../shop"}},
		{"pipeline_refresh", map[string]any{"project": "nowhere"}, []string{"nowhere"}},
		{"pipeline_resume", map[string]any{"project": "shop", "project_path": "~nobody-here/shop"}, []string{"~nobody-here/shop", "does not exist"}},
	} {
		wantMessage(t, c.tool, callErr(t, cs, c.tool, c.args), c.want...)
	}
	if n := commits(t, dir); n != before {
		t.Errorf("refused calls made %d commits", n-before)
	}
}
