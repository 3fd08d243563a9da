package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The merge driver git runs must be one git can find: git runs
// merge.curator.driver with sh, and a program it cannot find leaves the
// file as ours, whole, marked conflicted, with no markers and theirs'
// change nowhere in it.

// noCuratorPath is a PATH with git on it and no curator.
func noCuratorPath(t *testing.T) string {
	t.Helper()
	g, err := exec.LookPath("git")
	if err != nil {
		t.Skip("needs the git binary")
	}
	return filepath.Dir(g) + string(os.PathListSeparator) + "/bin"
}

// runAt runs a program in dir with PATH set, and returns its exit status
// and combined output.
func runAt(t *testing.T, dir, path, prog string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// twoBranches makes, in a store at dir, a bullet changed one way on main
// and another way on "other", each a clean record-level merge.
func twoBranches(t *testing.T, dir string) {
	t.Helper()
	bullet := func(helpful, updated string) []byte {
		return []byte("---\nid: STRAT-001\ncategory: strategy\nhelpful_count: " + helpful + "\nharmful_count: 0\nusage_count: 1\n" +
			"created_at: \"2026-11-01T10:00:00Z\"\nupdated_at: \"" + updated + "\"\nis_active: true\nvalidation: pending\n---\nPage through results.\n")
	}
	p := filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	write(t, p, bullet("1", "2026-11-01T10:00:00Z"))
	gitIn(t, dir, "add", "-A", ".")
	gitIn(t, dir, "commit", "-q", "-m", "base")
	gitIn(t, dir, "checkout", "-q", "-b", "other")
	write(t, p, bullet("3", "2026-11-03T10:00:00Z"))
	gitIn(t, dir, "commit", "-q", "-am", "other")
	gitIn(t, dir, "checkout", "-q", "main")
	write(t, p, bullet("2", "2026-11-02T10:00:00Z"))
	gitIn(t, dir, "commit", "-q", "-am", "main")
}

// init run where `curator` is not on PATH registers the path it was run
// from, says so, and git then merges with it.
func TestInitRegistersDriverByPath(t *testing.T) {
	needGit(t)
	bin, err := exec.LookPath("curator")
	if err != nil {
		t.Fatal(err)
	}
	path := noCuratorPath(t)
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q", "-b", "main")
	code, out := runAt(t, dir, path, bin, "init")
	if code != 0 {
		t.Fatalf("init: exit %d: %s", code, out)
	}
	if !strings.Contains(out, "curator is not on PATH") || !strings.Contains(out, bin) {
		t.Errorf("init does not say it registered %s:\n%s", bin, out)
	}
	if got := strings.TrimSpace(gitIn(t, dir, "config", "merge.curator.driver")); got != bin+" merge-driver %O %A %B %P" {
		t.Errorf("merge.curator.driver = %q", got)
	}
	twoBranches(t, dir)
	if code, out := runAt(t, dir, path, "git", "merge", "-q", "--no-edit", "other"); code != 0 {
		t.Fatalf("git merge with the registered driver: exit %d: %s", code, out)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md"))
	if !strings.Contains(string(data), "helpful_count: 4\n") {
		t.Errorf("merged bullet:\n%s", data)
	}
}

// A driver registered as `curator` in a clone where curator is not on
// PATH: init --merge-driver says so and registers the path it runs from;
// a merge git could not run the driver for is settled by resolve, which
// says why git stopped.
func TestDriverNotOnPath(t *testing.T) {
	needGit(t)
	bin, err := exec.LookPath("curator")
	if err != nil {
		t.Fatal(err)
	}
	path := noCuratorPath(t)
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q", "-b", "main")
	curator(t, dir, "init") // on PATH here: registers `curator merge-driver …`
	twoBranches(t, dir)

	// git cannot run the driver: the file is ours, whole, conflicted.
	if code, _ := runAt(t, dir, path, "git", "merge", "-q", "--no-edit", "other"); code == 0 {
		t.Fatal("git merged without the driver it could not run")
	}
	code, out := runAt(t, dir, path, bin, "resolve")
	if code != 0 {
		t.Fatalf("resolve: exit %d: %s", code, out)
	}
	for _, want := range []string{"could not run the merge driver", "curator init --merge-driver"} {
		if !strings.Contains(out, want) {
			t.Errorf("resolve does not say %q:\n%s", want, out)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md"))
	if !strings.Contains(string(data), "helpful_count: 4\n") {
		t.Errorf("resolved bullet:\n%s", data)
	}
	gitIn(t, dir, "commit", "-q", "--no-edit")

	code, out = runAt(t, dir, path, bin, "init", "--merge-driver")
	if code != 0 {
		t.Fatalf("init --merge-driver: exit %d: %s", code, out)
	}
	if !strings.Contains(out, "curator is not on PATH") {
		t.Errorf("init --merge-driver does not warn:\n%s", out)
	}
	if got := strings.TrimSpace(gitIn(t, dir, "config", "merge.curator.driver")); got != bin+" merge-driver %O %A %B %P" {
		t.Errorf("merge.curator.driver = %q", got)
	}

	// A definition of the user's own whose program is missing is kept,
	// with a warning that says how to fix it.
	gitIn(t, dir, "config", "merge.curator.driver", "/nowhere/curator merge-driver %O %A %B %P")
	code, out = runAt(t, dir, path, bin, "init", "--merge-driver")
	if code != 0 || !strings.Contains(out, "/nowhere/curator") || !strings.Contains(out, "git config merge.curator.driver") {
		t.Errorf("init --merge-driver with a missing program: exit %d:\n%s", code, out)
	}
	if got := strings.TrimSpace(gitIn(t, dir, "config", "merge.curator.driver")); got != "/nowhere/curator merge-driver %O %A %B %P" {
		t.Errorf("the user's definition was changed: %q", got)
	}
}
