package store

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runGit runs git in dir with a fixed author and returns its combined
// output; the error names the command and holds the output.
func runGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@x", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		err = errors.New("git " + strings.Join(args, " ") + ": " + err.Error() + "\n" + string(out))
	}
	return string(out), err
}

// gitCmd runs git and fails the test if it fails.
func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := runGit(dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gitTry runs git and returns its error (loops expect some commands to
// fail while another process holds a lock).
func gitTry(dir string, args ...string) error {
	_, err := runGit(dir, args...)
	return err
}

// gitOK runs git and marks the test failed, naming the step, if it fails.
func gitOK(t *testing.T, dir, what string, args ...string) string {
	t.Helper()
	out, err := runGit(dir, args...)
	if err != nil {
		t.Errorf("%s: %v", what, err)
	}
	return out
}

func needGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not installed")
	}
}

// testConfig is the config.yaml of a test store (the store itself does
// not read it).
const testConfig = "# a test store\n"

// newStore is a store made by Init in a fresh folder (and a repository
// made by go-git), nothing committed yet.
func newStore(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, _, err := Init(dir, testConfig)
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// info is the commit of a test run.
func info(run string) CommitInfo {
	return CommitInfo{Summary: "test " + run, Decisions: []string{"did " + run}, RunID: run, Command: "curator test"}
}

// committedStore is newStore with the store's files committed.
func committedStore(t *testing.T) (*Store, string) {
	t.Helper()
	needGit(t)
	s, dir := newStore(t)
	if _, err := s.CommitStore(info("init")); err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// storeWithTwoRecords runs `git init` in dir, makes a store there and
// commits it, then commits two records, memory/inbox/a.md and b.md.
func storeWithTwoRecords(t *testing.T, dir string) *Store {
	t.Helper()
	gitCmd(t, dir, "init", "-q", "-b", "main")
	s, _, err := Init(dir, testConfig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CommitStore(info("init")); err != nil {
		t.Fatal(err)
	}
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("---\nid: a\n---\n"))
	cs.Write("memory/inbox/b.md", []byte("---\nid: b\n---\n"))
	if _, err := s.save(cs, info("records"), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return s
}
