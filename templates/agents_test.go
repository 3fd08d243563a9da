package templates

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// The names the curator MCP server offers: its tools, their parameters
// and the result fields the agent files refer to.
var mcpTools = []string{
	"list_entries", "get_memory", "add_memory", "update_long_term", "delete_memory", "restore_memory",
	"promote_to_rule", "curate_memory", "query_playbook", "add_reflection", "curate_playbook",
	"playbook_stats", "review_queue", "pipeline_status", "pipeline_transition", "validate_artifacts",
	"search_memory", "close_observation", "record_usage", "apply_curation", "inject_playbook",
	"pipeline_resume", "pipeline_refresh", "pipeline_restart", "pipeline_hold", "pipeline_continue", "pipeline_skip",
}

var mcpNames = map[string]bool{
	// parameters
	"ingestion_time_start": true, "ingestion_time_end": true, "include_body": true, "dry_run": true,
	"reflection_id": true, "project_path": true, "auto_merge": true, "similarity_threshold": true,
	// the curation prompt and its answer
	"curate_reflection": true,
	// result fields
	"brief_path": true, "left_for_reflection": true, "observations_closed": true,
	// reflection fields
	"helpful_bullets": true, "harmful_bullets": true,
}

var (
	codeSpan  = regexp.MustCompile("`([^`\n]+)`")
	snakeName = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)
)

func init() {
	for _, t := range mcpTools {
		mcpNames[t] = true
	}
}

func readAgentFile(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(Agents, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkNames fails on a snake_case name in a code span that the MCP
// server does not know: a misspelt tool or parameter.
func checkNames(t *testing.T, name, text string) {
	t.Helper()
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		for _, w := range snakeName.FindAllString(m[1], -1) {
			if !mcpNames[w] {
				t.Errorf("%s: `%s` names %q, which is no tool, parameter or field of the MCP server", name, m[1], w)
			}
		}
	}
}

func TestClaudeCommands(t *testing.T) {
	want := map[string][]string{
		"curate-memory.md":  {"curate_memory", "list_entries", "update_long_term", "delete_memory", "curator memory curate"},
		"curate-context.md": {"add_reflection", "curate_playbook", "dry_run: true", "inject_playbook", "apply_curation", "curate_reflection", "curator context inject"},
		"handoff.md":        {"pipeline_transition", "brief_path", "pipeline_resume", "pipeline_hold", "pipeline_continue", "curator pipeline transition"},
	}
	entries, err := fs.ReadDir(Agents, ClaudeCommands)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Errorf("%d slash commands, want %d", len(entries), len(want))
	}
	for _, e := range entries {
		name := ClaudeCommands + "/" + e.Name()
		text := readAgentFile(t, name)
		must, ok := want[e.Name()]
		if !ok {
			t.Errorf("unexpected slash command %s", name)
		}
		head, _, found := strings.Cut(strings.TrimPrefix(text, "---\n"), "\n---\n")
		if !strings.HasPrefix(text, "---\n") || !found {
			t.Errorf("%s: no frontmatter", name)
		}
		for _, key := range []string{"description: ", "argument-hint: "} {
			if !strings.Contains(head, "\n"+key) && !strings.HasPrefix(head, key) {
				t.Errorf("%s: frontmatter has no %s", name, key)
			}
		}
		for _, s := range append(must, "$ARGUMENTS") {
			if !strings.Contains(text, s) {
				t.Errorf("%s does not mention %s", name, s)
			}
		}
		checkNames(t, name, text)
	}
}

func TestAgentsMDGuide(t *testing.T) {
	text := readAgentFile(t, AgentsMDGuide)
	for _, tool := range mcpTools {
		if !strings.Contains(text, "`"+tool+"`") {
			t.Errorf("%s does not list the tool %s", AgentsMDGuide, tool)
		}
	}
	for _, s := range []string{"`curator mcp`", "curator memory curate", "curator context curate", "curator context inject --file AGENTS.md", "curator pipeline transition"} {
		if !strings.Contains(text, s) {
			t.Errorf("%s does not mention %s", AgentsMDGuide, s)
		}
	}
	if strings.Contains(text, "<!--") {
		t.Errorf("%s holds a comment; its markers are added when it is written", AgentsMDGuide)
	}
	checkNames(t, AgentsMDGuide, text)
}
