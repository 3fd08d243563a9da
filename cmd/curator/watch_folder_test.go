package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// folderBackScenario removes a watched project folder (and, once, the
// folder above it) beside a running watch, waits until watch has recorded
// the artifact as deleted and read the new state, makes the folder again
// and checks that watch follows it: the restored artifact clears the
// drift, a change after is new drift.
func folderBackScenario(t *testing.T, args ...string) {
	gitEnv(t)
	dir := t.TempDir()
	curator(t, dir, "init")
	spec := scriptFile(t, "pipeline_sdd.txtar", "shop/spec.md")
	project := filepath.Join(dir, "apps", "shop")
	specPath := filepath.Join(project, "spec.md")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, specPath, spec)
	curator(t, dir, "pipeline", "transition", "--project", "shop", "--pipeline", "sdd", "--from", "spec-writer", "--to", "implementer", "--project-path", "apps/shop")
	w, _ := startWatch(t, dir, append([]string{"--pipelines"}, args...)...)
	wait := 15 * time.Second
	changed := append(append([]byte{}, spec...), "\nOne more requirement.\n"...)

	for i, gone := range []string{project, filepath.Dir(project), project} {
		if err := os.RemoveAll(gone); err != nil {
			t.Fatal(err)
		}
		if d := w.next("drift", wait); d.Change != "deleted" {
			t.Fatalf("cycle %d, %s removed: %+v", i, gone, d)
		}
		// watch reads the state its drift run wrote, without the folder
		w.quiet(time.Second)

		if err := os.MkdirAll(project, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, specPath, spec)
		w.next("drift-cleared", wait)
		write(t, specPath, changed)
		if d := w.next("drift", wait); d.Change != "modified" || d.SHA256 != sha(changed) {
			t.Fatalf("cycle %d, changed after the folder came back: %+v", i, d)
		}
		write(t, specPath, spec)
		w.next("drift-cleared", wait)
	}
	w.stop()
}

// TestWatchProjectFolderBack: file events (inotify on Linux).
func TestWatchProjectFolderBack(t *testing.T) {
	folderBackScenario(t)
}

// TestWatchProjectFolderBackPolling: the same with --poll.
func TestWatchProjectFolderBackPolling(t *testing.T) {
	folderBackScenario(t, "--poll", "100ms")
}
