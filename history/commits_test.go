package history

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// TestReadCommitAsGoGit decodes commits of every shape git writes (a root,
// a merge, extra headers, no message, a message without its last newline,
// a time zone west of UTC) and compares each with go-git's decoding.
func TestReadCommitAsGoGit(t *testing.T) {
	dir := t.TempDir()
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "GIT_AUTHOR_NAME= An  Author ", "GIT_AUTHOR_EMAIL=a@localhost", "GIT_COMMITTER_NAME=C", "GIT_COMMITTER_EMAIL=c@localhost",
			"GIT_AUTHOR_DATE=1767225600 -0530", "GIT_COMMITTER_DATE=1767229200 +0100")
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("", "init", "-q")
	tree := run("", "write-tree")
	root := run("first\n\nCurator-Run: r-1\n", "commit-tree", tree)
	side := run("side", "commit-tree", tree, "-p", root)
	merge := run("", "commit-tree", tree, "-p", root, "-p", side, "-m", "merge of two\n\nbody")
	empty := run("", "commit-tree", tree, "-p", merge, "-m", "")
	raw := fmt.Sprintf("tree %s\nparent %s\nauthor A <a@localhost> 1767225600 +0000\ncommitter C <c@localhost> 1767225600 +0000\n"+
		"encoding ISO-8859-1\ngpgsig -----BEGIN PGP SIGNATURE-----\n line\n -----END PGP SIGNATURE-----\n\nsigned\n", tree, empty)
	signed := run(raw, "hash-object", "-t", "commit", "-w", "--stdin")
	noBody := run(fmt.Sprintf("tree %s\nauthor A <a@localhost> 1767225600 +0000\ncommitter C <c@localhost> 1767225600 +0000\n", tree), "hash-object", "-t", "commit", "-w", "--stdin")

	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	objs := objectsOf(repo)
	defer objs.Close()
	for _, name := range []string{root, side, merge, empty, signed, noBody} {
		h := plumbing.NewHash(name)
		want, err := repo.CommitObject(h)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readCommit(objs, h)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w := fmt.Sprintf("%s %s %v %q %q %s %q %s %q", want.Hash, want.TreeHash, want.ParentHashes, want.Author.Name, want.Author.Email,
			want.Author.When, want.Committer.Name, want.Committer.When, want.Message)
		g := fmt.Sprintf("%s %s %v %q %q %s %q %s %q", got.Hash, got.TreeHash, got.ParentHashes, got.Author.Name, got.Author.Email,
			got.Author.When, got.Committer.Name, got.Committer.When, got.Message)
		if g != w {
			t.Errorf("commit %s:\n got %s\nwant %s", name, g, w)
		}
	}
}
