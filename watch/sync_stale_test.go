//go:build unix

package watch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// A sync folder left by a killed watcher is removed by the next one to
// make its own; one of a running process, or holding other files, stays.
func TestStaleSyncFoldersRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	dead := strconv.Itoa(gone.Process.Pid)
	folder := func(pid, name string, files ...string) string {
		d := filepath.Join(tmp, "curator-watch-"+pid+"-"+name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(d, f), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	stale := folder(dead, "111", "s7")
	running := folder(strconv.Itoa(os.Getppid()), "222", "s3")
	other := folder(dead, "333", "s1", "notes.md")

	dir := t.TempDir()
	w, err := New(Options{Debounce: time.Hour, MaxDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	follow(t, w)
	syncNow(t, w)
	if w.Mode() != ModeNotify {
		t.Skip("no notifications here: no sync folder is made")
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s, left by a process that no longer runs, was not removed (%v)", stale, err)
	}
	for _, d := range []string{running, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	if own := filepath.Base(w.SyncFolder()); !staleSyncFolder.MatchString(own) {
		t.Errorf("the watcher's own sync folder %s is not named by its process", own)
	}
}
