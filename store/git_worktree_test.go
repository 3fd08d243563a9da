package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curator-dev/curator/internal/gitcommit"
)

// linkedWorktree is a repository whose main worktree (main/) holds a
// committed store, and a linked worktree of it (wt/, `git worktree add`)
// on the branch wtbranch. It returns the store opened in the linked
// worktree and both work tree roots.
func linkedWorktree(t *testing.T) (s *Store, mainDir, wtDir string) {
	t.Helper()
	needGit(t)
	root := t.TempDir()
	mainDir = filepath.Join(root, "main")
	ms, _, err := Init(mainDir, testConfig)
	if err != nil {
		t.Fatal(err)
	}
	cs := &Changeset{}
	cs.Write("memory/inbox/old.md", []byte("---\nid: old\n---\nold\n"))
	if _, err := ms.save(cs, info("main-1"), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ms.CommitStore(info("init")); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, mainDir, "worktree", "add", "-q", "../wt", "-b", "wtbranch")
	wtDir = filepath.Join(root, "wt")
	if s, err = Open(filepath.Join(wtDir, DirName)); err != nil {
		t.Fatal(err)
	}
	return s, mainDir, wtDir
}

// checkWorktreeCommit checks that hash is the tip of wtbranch and the
// linked worktree's HEAD, that its objects are in the common object folder
// and nothing went into the worktree's own git folder, that the main
// worktree and its branch are untouched, and that git is content.
func checkWorktreeCommit(t *testing.T, mainDir, wtDir, hash, mainTip string) {
	t.Helper()
	if got := strings.TrimSpace(gitCmd(t, wtDir, "rev-parse", "HEAD")); got != hash {
		t.Errorf("worktree HEAD is %s, the run's commit %s", got, hash)
	}
	if got := strings.TrimSpace(gitCmd(t, mainDir, "rev-parse", "refs/heads/wtbranch")); got != hash {
		t.Errorf("wtbranch is %s, the run's commit %s", got, hash)
	}
	if got := strings.TrimSpace(gitCmd(t, mainDir, "rev-parse", "HEAD")); got != mainTip {
		t.Errorf("the main worktree's branch moved: %s, was %s", got, mainTip)
	}
	if got := strings.TrimSpace(gitCmd(t, wtDir, "symbolic-ref", "HEAD")); got != "refs/heads/wtbranch" {
		t.Errorf("worktree HEAD names %s", got)
	}
	// The commit object is in the common folder, loose or packed.
	common := filepath.Join(mainDir, ".git")
	if got := strings.TrimSpace(gitCmd(t, wtDir, "rev-parse", "--git-common-dir")); filepath.Clean(got) != common && filepath.Clean(filepath.Join(wtDir, got)) != common {
		t.Fatalf("git's common dir is %s", got)
	}
	loose := filepath.Join(common, "objects", hash[:2], hash[2:])
	if _, err := os.Stat(loose); err != nil {
		packs, _ := filepath.Glob(filepath.Join(common, "objects", "pack", "*.idx"))
		found := false
		for _, p := range packs {
			if strings.Contains(gitCmd(t, mainDir, "verify-pack", "-v", p), hash) {
				found = true
			}
		}
		if !found {
			t.Errorf("commit %s is neither a loose object nor in a pack of %s", hash, common)
		}
	}
	own := filepath.Join(common, "worktrees", "wt")
	for _, p := range []string{"objects", "refs/heads", "packed-refs", "index.lock", "HEAD.lock"} {
		if _, err := os.Stat(filepath.Join(own, p)); err == nil {
			t.Errorf("%s written in the worktree's own git folder", p)
		}
	}
	if locks, _ := filepath.Glob(filepath.Join(common, "refs", "heads", "*.lock")); len(locks) != 0 {
		t.Errorf("branch locks left: %v", locks)
	}
	// The reflog of the worktree's HEAD (its own) and of the branch (common).
	if got := gitCmd(t, wtDir, "reflog", "-1", "--format=%H", "HEAD"); strings.TrimSpace(got) != hash {
		t.Errorf("worktree HEAD reflog: %q", got)
	}
	if got := gitCmd(t, mainDir, "reflog", "-1", "--format=%H", "refs/heads/wtbranch"); strings.TrimSpace(got) != hash {
		t.Errorf("wtbranch reflog: %q", got)
	}
	gitCmd(t, wtDir, "fsck", "--strict")
	gitCmd(t, mainDir, "fsck", "--strict")
	if st := gitCmd(t, wtDir, "status", "--porcelain"); st != "" {
		t.Errorf("worktree status after the run:\n%s", st)
	}
	if st := gitCmd(t, mainDir, "status", "--porcelain"); st != "" {
		t.Errorf("main worktree status after a run in the linked one:\n%s", st)
	}
}

// A run in a linked worktree (`git worktree add`) commits on the
// worktree's branch with its objects in the common object folder, updates
// the worktree's own index, leaves the main worktree alone, and the user's
// next commit in the worktree builds on it.
func TestCommitInLinkedWorktree(t *testing.T) {
	s, mainDir, wtDir := linkedWorktree(t)
	mainTip := strings.TrimSpace(gitCmd(t, mainDir, "rev-parse", "HEAD"))

	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("---\nid: a\n---\nin the worktree\n"))
	cs.Write("memory/state.json", []byte("{\"watermark\": \"wt\"}\n"))
	cs.Move("memory/inbox/old.md", "memory/confirmed/fact/old.md", []byte("---\nid: old\nstatus: confirmed\n---\nold\n"))
	hash, err := s.save(cs, info("wt-1"), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(gitCmd(t, wtDir, "log", "-1", "--format=%B"), "Curator-Run: wt-1\n") {
		t.Errorf("git log -1 in the worktree:\n%s", gitCmd(t, wtDir, "log", "-1", "--format=%B"))
	}
	checkWorktreeCommit(t, mainDir, wtDir, hash, mainTip)
	files := gitCmd(t, wtDir, "show", "--no-renames", "--name-status", "--format=", "HEAD")
	want := "A\t.curator/memory/confirmed/fact/old.md\nD\t.curator/memory/inbox/old.md\nA\t.curator/memory/inbox/a.md\nA\t.curator/memory/state.json\n"
	if !sameLines(files, want) {
		t.Errorf("commit holds:\n%s", files)
	}
	if _, err := os.Stat(filepath.Join(mainDir, DirName, "memory/inbox/a.md")); err == nil {
		t.Error("the run wrote into the main worktree")
	}

	// The user's next commit in the worktree works and keeps the curation.
	os.WriteFile(filepath.Join(wtDir, "user.txt"), []byte("user\n"), 0o644)
	gitCmd(t, wtDir, "add", "user.txt")
	gitCmd(t, wtDir, "commit", "-qm", "user in worktree")
	if got := gitCmd(t, wtDir, "log", "--format=%s", "-2"); got != "user in worktree\ntest wt-1\n" {
		t.Errorf("history:\n%s", got)
	}
	if got := gitCmd(t, wtDir, "show", "HEAD:.curator/memory/inbox/a.md"); got != "---\nid: a\n---\nin the worktree\n" {
		t.Errorf("the user's commit lost the curation: %q", got)
	}
	if n := gitCmd(t, wtDir, "ls-tree", "-r", "--name-only", "HEAD", ".curator/memory/inbox/old.md"); n != "" {
		t.Errorf("the user's commit brought back the moved record: %s", n)
	}
	gitCmd(t, wtDir, "fsck", "--strict")

	// A second run goes on top of the user's commit.
	cs = &Changeset{}
	cs.Delete("memory/inbox/a.md")
	hash, err = s.save(cs, info("wt-2"), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkWorktreeCommit(t, mainDir, wtDir, hash, mainTip)
	if got := gitCmd(t, wtDir, "log", "--format=%s", "-3"); got != "test wt-2\nuser in worktree\ntest wt-1\n" {
		t.Errorf("history:\n%s", got)
	}
}

// A large run (a pack, not loose objects) in a linked worktree puts the
// pack in the common object folder.
func TestCommitLargeRunInLinkedWorktree(t *testing.T) {
	s, mainDir, wtDir := linkedWorktree(t)
	mainTip := strings.TrimSpace(gitCmd(t, mainDir, "rev-parse", "HEAD"))
	cs := &Changeset{}
	for i := 0; i < 2*gitcommit.LooseLimit; i++ {
		cs.Write(fmt.Sprintf("memory/inbox/m%04d.md", i), []byte(fmt.Sprintf("---\nid: m%04d\n---\n", i)))
	}
	cs.Move("memory/inbox/old.md", "memory/trash/old.md", []byte("---\nid: old\nstatus: trash\n---\nold\n"))
	hash, err := s.save(cs, info("wt-big"), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(mainDir, ".git/objects/pack/*.idx"))
	if len(packs) != 1 {
		t.Fatalf("want one pack in the common folder, got %v", packs)
	}
	gitCmd(t, mainDir, "verify-pack", packs[0])
	checkWorktreeCommit(t, mainDir, wtDir, hash, mainTip)
	if n := strings.Count(gitCmd(t, wtDir, "ls-files", ".curator/memory/inbox"), "\n"); n != 2*gitcommit.LooseLimit+1 { // + .keep
		t.Errorf("worktree index has %d inbox files", n)
	}
	if n := strings.Count(gitCmd(t, mainDir, "ls-files", ".curator/memory/inbox"), "\n"); n != 2 { // .keep, old.md
		t.Errorf("main index has %d inbox files", n)
	}
	os.WriteFile(filepath.Join(wtDir, "user.txt"), []byte("user\n"), 0o644)
	gitCmd(t, wtDir, "add", "user.txt")
	gitCmd(t, wtDir, "commit", "-qm", "user in worktree")
	gitCmd(t, wtDir, "fsck", "--strict")
	if st := gitCmd(t, wtDir, "status", "--porcelain"); st != "" {
		t.Errorf("worktree status after the user's commit:\n%s", st)
	}
}

// sameLines compares two newline-separated lists ignoring their order.
func sameLines(a, b string) bool {
	as, bs := strings.Split(strings.TrimSpace(a), "\n"), strings.Split(strings.TrimSpace(b), "\n")
	if len(as) != len(bs) {
		return false
	}
	seen := map[string]int{}
	for _, x := range as {
		seen[x]++
	}
	for _, x := range bs {
		seen[x]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}
