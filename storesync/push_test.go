package storesync

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
)

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// clones makes a bare remote holding one commit on main and two clones of it.
func clones(t *testing.T) (bare, a, b string) {
	t.Helper()
	root := t.TempDir()
	bare, a, b = filepath.Join(root, "remote.git"), filepath.Join(root, "a"), filepath.Join(root, "b")
	gitRun(t, root, "init", "-q", "--bare", "-b", "main", bare)
	gitRun(t, root, "clone", "-q", bare, a)
	gitRun(t, a, "commit", "-q", "--allow-empty", "-m", "first")
	gitRun(t, a, "push", "-q", "origin", "main")
	gitRun(t, root, "clone", "-q", bare, b)
	return bare, a, b
}

func clonesRemote(t *testing.T, dir string) Remote {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Remote{Repo: repo, Name: "origin", Branch: "main"}
}

// A push turned down because another clone pushed first is ErrRejected:
// sync fetches, merges and tries again.
func TestPushRejectedWhenRemoteMoved(t *testing.T) {
	_, a, b := clones(t)
	gitRun(t, b, "commit", "-q", "--allow-empty", "-m", "from b")
	gitRun(t, b, "push", "-q", "origin", "main")
	gitRun(t, a, "commit", "-q", "--allow-empty", "-m", "from a")
	err := clonesRemote(t, a).Push()
	if !errors.Is(err, ErrRejected) {
		t.Fatalf("push after another clone pushed: got %v, want ErrRejected", err)
	}
}

// A push the remote turns down while its branch stays put (here a
// pre-receive hook) is reported as it is, never as "the branch moved":
// fetching again would not help.
func TestPushDeclinedByHookIsNotRejected(t *testing.T) {
	bare, a, _ := clones(t)
	hook := filepath.Join(bare, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'policy: no pushes today' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun(t, a, "commit", "-q", "--allow-empty", "-m", "from a")
	err := clonesRemote(t, a).Push()
	if err == nil {
		t.Fatal("push through a declining hook succeeded")
	}
	if errors.Is(err, ErrRejected) {
		t.Fatalf("a hook's refusal was taken for a moved branch: %v", err)
	}
}
