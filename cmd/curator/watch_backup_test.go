package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchDriftCommitsNoBackup: in a clean repository, the drift runs of
// watch commit the state and the dashboard, never the state backups, which
// stay on disk beside the state (git-ignored, so the work tree stays
// clean).
func TestWatchDriftCommitsNoBackup(t *testing.T) {
	gitEnv(t)
	dir := t.TempDir()
	mustGit(t, dir, "init", "-q")
	spec := scriptFile(t, "pipeline_sdd.txtar", "shop/spec.md")
	if err := os.MkdirAll(filepath.Join(dir, "shop"), 0o755); err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(dir, "shop/spec.md")
	write(t, specPath, spec)
	mustGit(t, dir, "add", "shop")
	mustGit(t, dir, "commit", "-q", "-m", "the project")
	curator(t, dir, "init")
	curator(t, dir, "pipeline", "transition", "--project", "shop", "--pipeline", "sdd", "--from", "spec-writer", "--to", "implementer", "--project-path", "shop")
	home := filepath.Join(dir, ".curator/pipelines")
	statePath := filepath.Join(home, "pipeline-state-shop.json")

	w, _ := startWatch(t, dir, "--pipelines")
	changed := append(append([]byte{}, spec...), "\nOne more requirement.\n"...)
	for i, step := range []struct {
		content []byte
		event   string
	}{{changed, "drift"}, {spec, "drift-cleared"}, {changed, "drift"}} {
		before, err := os.ReadFile(statePath)
		if err != nil {
			t.Fatal(err)
		}
		write(t, specPath, step.content)
		e := w.next(step.event, 15*time.Second)
		if e.Commit == "" {
			t.Fatalf("step %d: %s event without a commit: %+v", i, step.event, e)
		}
		if stat := mustGit(t, dir, "show", "--stat", "--format=", "HEAD"); strings.Contains(stat, ".bak") ||
			!strings.Contains(stat, "pipeline-state-shop.json") {
			t.Fatalf("step %d: the drift commit holds:\n%s", i, stat)
		}
		if files := mustGit(t, dir, "ls-files"); strings.Contains(files, ".bak") {
			t.Fatalf("step %d: git ls-files holds a backup:\n%s", i, files)
		}
		if st := mustGit(t, dir, "status", "--porcelain", "--ignored=no", ".curator"); st != "" {
			t.Fatalf("step %d: the store is not clean after the drift run:\n%s", i, st)
		}
		if bak, err := os.ReadFile(statePath + ".bak.1"); err != nil || !bytes.Equal(bak, before) {
			t.Fatalf("step %d: .bak.1 is not the state the drift run replaced (%v)", i, err)
		}
	}
	w.stop()
	if log := mustGit(t, dir, "log", "--all", "--name-only", "--format="); strings.Contains(log, ".bak") {
		t.Fatalf("a backup was committed:\n%s", log)
	}
}
