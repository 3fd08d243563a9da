package agentsetup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/internal/refuse"
)

func actions(files []AgentFile) map[string]string {
	m := map[string]string{}
	for _, f := range files {
		m[f.Path] = f.Action
	}
	return m
}

func TestPlanAgent(t *testing.T) {
	dir := t.TempDir()
	block := playbook.InjectBlock(nil, "")
	files, err := Plan(dir, AgentClaude, block, "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{".mcp.json": ActionCreate, "CLAUDE.md": ActionCreate,
		".claude/commands/curate-memory.md": ActionCreate, ".claude/commands/curate-context.md": ActionCreate,
		".claude/commands/handoff.md": ActionCreate}
	if got := actions(files); len(got) != len(want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	for p, a := range want {
		if actions(files)[p] != a {
			t.Errorf("%s: %s, want %s", p, actions(files)[p], a)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".mcp.json")); !os.IsNotExist(err) {
		t.Fatalf("planning wrote a file: %v", err)
	}
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(dir, ".claude", "commands", "handoff.md")
	if err := os.WriteFile(edited, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err = Plan(dir, AgentClaude, block, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		want := ActionUnchanged
		if f.Path == ".claude/commands/handoff.md" {
			want = ActionKeep
		}
		if f.Action != want || f.data != nil {
			t.Errorf("second plan: %s %s (data %v), want %s", f.Path, f.Action, f.data != nil, want)
		}
	}

	files, err = Plan(dir, AgentsMD, block, "")
	if err != nil || len(files) != 1 || files[0].Path != "AGENTS.md" || files[0].Action != ActionCreate {
		t.Fatalf("agents-md: %+v %v", files, err)
	}
	if s := string(files[0].data); !strings.Contains(s, guideBegin+"\n## curator\n") || !strings.HasSuffix(s, block+"\n") {
		t.Errorf("AGENTS.md:\n%s", s)
	}

	if _, err := Plan(dir, "emacs", block, ""); !refuse.IsRequest(err) || !strings.Contains(err.Error(), "claude, agents-md") {
		t.Errorf("unknown agent: %v", err)
	}
}

func TestPlanAgentBrokenFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte("{\n  \"a\": ,\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Plan(dir, AgentClaude, playbook.InjectBlock(nil, ""), "")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ".mcp.json")+":2:") || refuse.IsRequest(err) || refuse.IsBlocked(err) {
		t.Errorf("broken .mcp.json: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(playbook.InjectBegin+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Plan(dir, AgentsMD, playbook.InjectBlock(nil, ""), "")
	if !refuse.IsBlocked(err) || !strings.Contains(err.Error(), "AGENTS.md") {
		t.Errorf("AGENTS.md with one marker: %v", err)
	}
}
