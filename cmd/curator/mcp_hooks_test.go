package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMCPTransitionRunsHooks: pipeline_transition runs the curations the
// transition triggers, as the command does, and no_hooks skips them.
func TestMCPTransitionRunsHooks(t *testing.T) {
	dir, _ := pipelineStore(t)
	write(t, filepath.Join(dir, "shop/completion-report.md"), scriptFile(t, "pipeline_hooks.txtar", "completion-report.md"))
	cs := mcpSession(t, dir)
	pending := filepath.Join(dir, ".curator/context/reflections/pending/refl-story1.md")

	call(t, cs, "add_reflection", map[string]any{"reflection": string(scriptFile(t, "pipeline_hooks.txtar", "story1.md"))})
	skipped := call(t, cs, "pipeline_transition", map[string]any{"project": "shop", "pipeline": "sdd",
		"from": "implementer", "to": "implementer", "step": 2, "no_hooks": true})
	if hooks, _ := skipped["hooks"].([]any); len(hooks) != 0 {
		t.Fatalf("no_hooks ran curations: %v", skipped["hooks"])
	}
	if _, err := os.Stat(pending); err != nil {
		t.Fatalf("no_hooks: the reflection is no longer pending: %v", err)
	}

	before := commits(t, dir)
	tr := call(t, cs, "pipeline_transition", map[string]any{"project": "shop", "pipeline": "sdd",
		"from": "implementer", "to": "implementer", "step": 3})
	hooks, _ := tr["hooks"].([]any)
	if len(hooks) != 1 {
		t.Fatalf("hooks: %v", tr["hooks"])
	}
	h := hooks[0].(map[string]any)
	if h["event"] != "step_done" || h["status"] != "committed" || h["commit"] == "" {
		t.Fatalf("the step's curation: %v", h)
	}
	if _, err := os.Stat(pending); !os.IsNotExist(err) {
		t.Errorf("the reflection is still pending after the step's curation")
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md")); err != nil {
		t.Errorf("the lesson did not become a bullet: %v", err)
	}
	if n := commits(t, dir); n < before+2 {
		t.Errorf("the transition and its curation made %d commits, want at least 2", n-before)
	}
}
