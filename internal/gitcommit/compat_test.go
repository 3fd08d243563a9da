package gitcommit

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A tree written by another tool with a zero-padded folder mode ("040000",
// which git reads and fsck only warns about): editing a file in that folder
// must keep the folder's other files.
func TestCommitKeepsFoldersWithZeroPaddedMode(t *testing.T) {
	needGit(t)
	s, dir := newStore(t)
	cs := &Changeset{}
	cs.Write("memory/inbox/keep1.md", []byte("k1\n"))
	cs.Write("memory/inbox/keep2.md", []byte("k2\n"))
	if _, err := s.Save(cs, info("fill")); err != nil {
		t.Fatal(err)
	}
	// Rewrite the root tree so that ".curator" has mode 040000.
	rootHex := gitIn(t, dir, "", "rev-parse", "HEAD^{tree}")
	raw := gitIn(t, dir, "", "cat-file", "tree", rootHex) // binary, read below instead
	_ = raw
	out, _ := exec.Command("git", "-C", dir, "cat-file", "tree", rootHex).Output()
	fixed := strings.Replace(string(out), "40000 .curator\x00", "040000 .curator\x00", 1)
	if fixed == string(out) {
		t.Fatal("no .curator entry")
	}
	f := filepath.Join(t.TempDir(), "tree")
	os.WriteFile(f, []byte(fixed), 0o644)
	newRoot := gitIn(t, dir, "", "hash-object", "-t", "tree", "-w", "--literally", f)
	c := gitIn(t, dir, "", "commit-tree", newRoot, "-p", "HEAD", "-m", "imported")
	gitIn(t, dir, "", "update-ref", "refs/heads/main", c)
	if got := gitIn(t, dir, "", "ls-tree", "-r", "--name-only", "HEAD"); !strings.Contains(got, "keep1.md") {
		t.Fatalf("setup: git reads HEAD as:\n%s", got)
	}
	os.Remove(filepath.Join(s.Dir, ".cache", "objects")) // not needed, but a cold cache
	cs = &Changeset{}
	cs.Write("memory/inbox/new.md", []byte("new\n"))
	if _, err := s.Save(cs, info("edit")); err != nil {
		t.Fatal(err)
	}
	files := gitIn(t, dir, "", "ls-tree", "-r", "--name-only", "HEAD")
	for _, want := range []string{"keep1.md", "keep2.md", "new.md"} {
		if !strings.Contains(files, want) {
			t.Errorf("HEAD lost %s; it holds:\n%s", want, files)
		}
	}
	_ = hex.EncodeToString
}

// Entries with modes curator never writes (executable, symlink, submodule)
// in a folder the run edits are kept as they are.
func TestCommitKeepsOtherFileModes(t *testing.T) {
	s, dir := committedStore(t)
	in := filepath.Join(s.Dir, "memory", "inbox")
	os.WriteFile(filepath.Join(in, "run.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.Symlink("run.sh", filepath.Join(in, "link.md"))
	gitIn(t, dir, "", "add", "-A")
	blob := gitIn(t, dir, "", "rev-parse", "HEAD:.curator/config.yaml")
	_ = blob
	head := gitIn(t, dir, "", "rev-parse", "HEAD")
	gitIn(t, dir, "", "update-index", "--add", "--cacheinfo", "160000,"+head+",.curator/memory/inbox/sub")
	gitIn(t, dir, "", "commit", "-qm", "modes")
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("a\n"))
	cs.Write("memory/inbox/sub0.md", []byte("a\n"))
	if _, err := s.Save(cs, info("edit")); err != nil {
		t.Fatal(err)
	}
	ls := gitIn(t, dir, "", "ls-tree", "HEAD:.curator/memory/inbox")
	for _, want := range []string{"100755 blob", "120000 blob", "160000 commit"} {
		if !strings.Contains(ls, want) {
			t.Errorf("lost %s:\n%s", want, ls)
		}
	}
	gitIn(t, dir, "", "fsck", "--strict")
	t.Log(gitIn(t, dir, "", "status", "--porcelain"))
}

// A path of 0xFFF bytes or more in the index (git allows them).
func TestSpliceIndexLongNamesWithGit(t *testing.T) {
	s, dir := committedStore(t)
	blob := gitIn(t, dir, "", "rev-parse", "HEAD:.curator/config.yaml")
	for _, n := range []int{0xFFE, 0xFFF, 0x1000, 0x1001, 5000} {
		p := strings.Repeat("d/", (n-10)/2)
		p = p + strings.Repeat("f", n-len(p))
		if len(p) != n {
			t.Fatal(len(p))
		}
		gitIn(t, dir, "", "update-index", "--add", "--cacheinfo", "100644,"+blob+","+p)
	}
	gitIn(t, dir, "", "update-index", "--index-version", "3")
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("a\n"))
	if _, err := s.Save(cs, info("edit")); err != nil {
		t.Fatal(err)
	}
	ls := gitIn(t, dir, "", "ls-files")
	if strings.Count(ls, "\n")+1 < 5 || !strings.Contains(ls, "memory/inbox/a.md") {
		t.Errorf("ls-files:\n%.300s", ls)
	}
	gitIn(t, dir, "", "fsck", "--strict")
}

// Index version 4 goes through go-git's codec, concurrently with the trees.
func TestCommitWithIndexVersion4(t *testing.T) {
	s, dir := committedStore(t)
	gitIn(t, dir, "", "update-index", "--index-version", "4")
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("a\n"))
	if _, err := s.Save(cs, info("edit")); err != nil {
		t.Fatal(err)
	}
	if st := gitIn(t, dir, "", "status", "--porcelain"); st != "" {
		t.Errorf("status: %s", st)
	}
}

// Trees built by merging bytes equal what git builds from the same files.
func TestTreesMatchGitWriteTree(t *testing.T) {
	s, dir := committedStore(t)
	names := []string{"p/a-b.md", "p/a.md", "p/a/b.md", "p/a0.md", "p/a.b/c.md", "p/ä.md", "p/A.md", "p/a/a/a.md"}
	for i, n := range names {
		cs := &Changeset{}
		cs.Write(n, []byte(n))
		if i%2 == 1 {
			cs.Write("q/"+n, []byte(n))
		}
		if _, err := s.Save(cs, info(n)); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, "", "add", "-A", ".curator")
		if w, h := gitIn(t, dir, "", "write-tree"), gitIn(t, dir, "", "rev-parse", "HEAD^{tree}"); w != h {
			t.Fatalf("after %s: git builds %s, curator %s", n, w, h)
		}
	}
	cs := &Changeset{}
	cs.Delete("p/a/b.md")
	cs.Move("p/a/a/a.md", "p/a-b/x.md", []byte("x"))
	if _, err := s.Save(cs, info("mv")); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "", "add", "-A", ".curator")
	if w, h := gitIn(t, dir, "", "write-tree"), gitIn(t, dir, "", "rev-parse", "HEAD^{tree}"); w != h {
		t.Fatalf("after move: git builds %s, curator %s", w, h)
	}
	gitIn(t, dir, "", "fsck", "--strict")
}

// The git index a commit splices into its lock file, entry by entry, is
// one git reads as the commit's tree: after adds, a move onto a name that
// sorts between others, a delete and an edit, git sees nothing staged and
// nothing changed, and lists the same files as the commit.
func TestSplicedIndexIsTheCommitsForGit(t *testing.T) {
	s, dir := committedStore(t)
	check := func(step string) {
		t.Helper()
		if st := gitIn(t, dir, "", "status", "--porcelain"); st != "" {
			t.Fatalf("%s: git status:\n%s", step, st)
		}
		if staged := gitIn(t, dir, "", "diff", "--cached", "--name-only"); staged != "" {
			t.Fatalf("%s: staged:\n%s", step, staged)
		}
		if ls, tree := gitIn(t, dir, "", "ls-files"), gitIn(t, dir, "", "ls-tree", "-r", "--name-only", "HEAD"); ls != tree {
			t.Fatalf("%s: the index lists\n%s\nthe commit holds\n%s", step, ls, tree)
		}
		gitIn(t, dir, "", "fsck", "--strict")
	}
	cs := &Changeset{}
	for _, name := range []string{"b", "d", "f", "h"} {
		cs.Write("memory/inbox/"+name+".md", []byte(name+"\n"))
	}
	if _, err := s.Save(cs, info("add")); err != nil {
		t.Fatal(err)
	}
	check("adds")
	cs = &Changeset{}
	cs.Move("memory/inbox/h.md", "memory/inbox/e.md", []byte("h, moved\n"))
	cs.Delete("memory/inbox/b.md")
	cs.Write("memory/inbox/d.md", []byte("d, edited\n"))
	cs.Write("memory/inbox/a.md", []byte("a\n"))
	if _, err := s.Save(cs, info("move")); err != nil {
		t.Fatal(err)
	}
	check("move, delete, edit")
	if got := gitIn(t, dir, "", "show", "HEAD:.curator/memory/inbox/e.md"); got != "h, moved" {
		t.Fatalf("the moved file in HEAD: %q", got)
	}
}
