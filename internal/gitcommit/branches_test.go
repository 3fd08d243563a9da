package gitcommit

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// Branches lists the tip of every branch and remote-tracking branch as
// git does, loose or packed, and a git command running beside it (its
// NAME.lock files, left behind or being written) does not make it fail;
// symbolic refs are left out.
func TestBranchesBesideGitsLocks(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	gitCmd(t, dir, "init", "-q", "-b", "main")
	gitCmd(t, dir, "commit", "-q", "--allow-empty", "-m", "one")
	one := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD"))
	gitCmd(t, dir, "branch", "other")
	gitCmd(t, dir, "commit", "-q", "--allow-empty", "-m", "two")
	two := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD"))
	gitCmd(t, dir, "update-ref", "refs/remotes/origin/feature", one)
	gitCmd(t, dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/feature")
	gitCmd(t, dir, "pack-refs", "--all") // other, origin/feature packed
	gitCmd(t, dir, "commit", "-q", "--allow-empty", "-m", "three")
	three := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD"))
	gitCmd(t, dir, "update-ref", "refs/heads/other", two) // loose again, over its packed line

	git := filepath.Join(dir, ".git")
	// A lock left by a crashed git, and one git is writing (empty).
	os.WriteFile(filepath.Join(git, "refs", "heads", "main.lock"), []byte(one+"\n"), 0o644)
	os.MkdirAll(filepath.Join(git, "refs", "remotes", "origin"), 0o755)
	os.WriteFile(filepath.Join(git, "refs", "remotes", "origin", "feature.lock"), nil, 0o644)

	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tips, err := r.Branches()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range tips {
		got = append(got, h.String())
	}
	slices.Sort(got)
	want := []string{one, two, three} // origin/feature, other, main
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("branches %v, want %v", got, want)
	}
	if h, err := r.HeadCommit(); err != nil || h != plumbing.NewHash(three) {
		t.Fatalf("HEAD commit %v %v, want %s", h, err, three)
	}

	// An empty loose ref (another program's half-written file) falls back
	// to its packed line.
	os.WriteFile(filepath.Join(git, "refs", "remotes", "origin", "feature"), nil, 0o644)
	if tips, err := r.Branches(); err != nil || len(tips) != 3 || !slices.Contains(tips, plumbing.NewHash(one)) {
		t.Fatalf("with an empty loose ref: %v %v", tips, err)
	}
}
