package bulletid

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// gitCmd runs git in dir with a fixed author and fails the test if it
// fails.
func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@x", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func needGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not installed")
	}
}

// newStore is a store made by Init in a fresh folder (and a repository
// made by go-git), nothing committed yet.
func newStore(t *testing.T) (*mdstore.Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, _, err := mdstore.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// info is the commit of a test run.
func info(run string) mdstore.CommitInfo {
	return mdstore.CommitInfo{Summary: "test " + run, Decisions: []string{"did " + run}, RunID: run, Command: "curator test"}
}

// save records a changeset as one run of a transaction.
func save(s *mdstore.Store, c *mdstore.Changeset, info mdstore.CommitInfo) (string, error) {
	noWait := time.Duration(0)
	tx, err := s.Begin(mdstore.TxOptions{LockTimeout: &noWait})
	if err != nil {
		return "", err
	}
	defer tx.Close()
	return tx.Save(&mdstore.Run{Changes: c, Commit: info})
}
