package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What curator commits is what git sees; the user's staged and unstaged
// work elsewhere is untouched and not in the commit.
func TestCommitAgainstRealGit(t *testing.T) {
	s, dir := committedStore(t)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("v1\n"), 0o644)
	gitCmd(t, dir, "add", "notes.txt")
	gitCmd(t, dir, "commit", "-qm", "user commit")
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("v2 unstaged\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "staged.txt"), []byte("staged\n"), 0o644)
	gitCmd(t, dir, "add", "staged.txt")

	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("---\nid: a\n---\n"))
	cs.Write("memory/inbox/b.md", []byte("---\nid: b\n---\n"))
	if _, err := s.save(cs, info("r1"), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	cs = &Changeset{}
	cs.Move("memory/inbox/a.md", "memory/trash/a.md", []byte("---\nid: a\nstatus: trash\n---\n"))
	cs.Delete("memory/inbox/b.md")
	hash, err := s.save(cs, info("r2"), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD")); got != hash {
		t.Errorf("HEAD %s, commit %s", got, hash)
	}
	status := gitCmd(t, dir, "status", "--porcelain")
	if status != " M notes.txt\nA  staged.txt\n" {
		t.Errorf("git status after the run:\n%s", status)
	}
	files := gitCmd(t, dir, "show", "--no-renames", "--name-status", "--format=", "HEAD")
	if files != "D\t.curator/memory/inbox/a.md\nD\t.curator/memory/inbox/b.md\nA\t.curator/memory/trash/a.md\n" {
		t.Errorf("commit holds:\n%s", files)
	}
	msg := gitCmd(t, dir, "log", "-1", "--format=%B")
	for _, want := range []string{"test r2\n", "did r2", "Curator-Run: r2", "Curator-Command: curator test"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	gitCmd(t, dir, "fsck", "--strict")
}

func TestCommitRefusesDetachedHeadAndMerge(t *testing.T) {
	s, dir := committedStore(t)
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("x"))

	os.WriteFile(filepath.Join(dir, ".git", "MERGE_HEAD"), []byte(strings.Repeat("0", 40)+"\n"), 0o644)
	if _, err := s.save(cs, info("m"), SaveOptions{}); !errors.Is(err, ErrMergeInProgress) {
		t.Errorf("merge in progress: got %v", err)
	}
	os.Remove(filepath.Join(dir, ".git", "MERGE_HEAD"))

	gitCmd(t, dir, "checkout", "-q", "--detach")
	if _, err := s.save(cs, info("d"), SaveOptions{}); !errors.Is(err, ErrDetachedHead) {
		t.Errorf("detached: got %v", err)
	}
	if _, err := os.Stat(s.Path("memory/inbox/a.md")); err == nil {
		t.Error("a refused run changed files")
	}
}

func TestCommitOnRepositoryWithoutCommits(t *testing.T) {
	needGit(t)
	s, dir := newStore(t)
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("x\n"))
	if _, err := s.save(cs, info("first"), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.TrimSpace(gitCmd(t, dir, "rev-list", "--count", "HEAD")); n != "1" {
		t.Errorf("%s commits", n)
	}
}

func TestNoCommitChangesFilesOnly(t *testing.T) {
	s, _ := newStore(t)
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("x\n"))
	hash, err := s.save(cs, info("nc"), SaveOptions{NoCommit: true})
	if err != nil || hash != "" {
		t.Fatalf("%q %v", hash, err)
	}
	if b, _ := os.ReadFile(s.Path("memory/inbox/a.md")); string(b) != "x\n" {
		t.Error("file not written")
	}
	if ok, _ := s.runRecorded(CommitInfo{RunID: "nc", At: time.Now().Add(-time.Hour)}); ok {
		t.Error("a commit was made")
	}
}

func TestRecoverFinishesACrashedRun(t *testing.T) {
	needGit(t)
	s, dir := newStore(t)
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("x\n"))
	crashAt(s, cs, "journal")
	if _, err := os.Stat(s.Path("memory/inbox/a.md")); err == nil {
		t.Fatal("file written before the simulated crash point")
	}
	recoverStore(t, s)
	if b, _ := os.ReadFile(s.Path("memory/inbox/a.md")); string(b) != "x\n" {
		t.Error("journal not replayed")
	}
	if !strings.Contains(gitCmd(t, dir, "log", "-1", "--format=%B"), "Curator-Run: crashed") {
		t.Error("recovered run not committed")
	}
	if m, _ := filepath.Glob(filepath.Join(s.Dir, ".journal", "*.journal")); len(m) != 0 {
		t.Errorf("journal left: %v", m)
	}
}

// TestRecoverRemovesTheCrashedWritesTemps: the temporary files a killed
// run's atomic writes left beside the files it wrote are removed when its
// journal is replayed; another's, beside other files, are not touched.
func TestRecoverRemovesTheCrashedWritesTemps(t *testing.T) {
	needGit(t)
	s, _ := newStore(t)
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("x\n"))
	crashAt(s, cs, "journal")
	// what a write killed half way leaves, and a file that is not the run's
	left := s.Path("memory/inbox/.tmp-a.md-2066067483")
	other := s.Path("memory/inbox/.tmp-b.md-12345")
	os.WriteFile(left, []byte("half"), 0o644)
	os.WriteFile(other, []byte("other"), 0o644)
	recoverStore(t, s)
	if b, _ := os.ReadFile(s.Path("memory/inbox/a.md")); string(b) != "x\n" {
		t.Error("journal not replayed")
	}
	if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the crashed write's temporary file is left: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a temporary file of another file was removed: %v", err)
	}
}

func TestLockNamesTheHolder(t *testing.T) {
	s, _ := newStore(t)
	l, err := s.takeLock(time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	start := time.Now()
	_, err = lock(filepath.Join(s.Dir, ".lock"), 200*time.Millisecond)
	var le *LockError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || le.PID != os.Getpid() {
		t.Fatalf("got %v", err)
	}
	if time.Since(start) < 200*time.Millisecond {
		t.Error("did not wait for the timeout")
	}
}

// A run that crashed after its commit, with a user commit on top before the
// next run, is not committed a second time.
func TestRecoverDoesNotCommitTwice(t *testing.T) {
	s, dir := committedStore(t)
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("x\n"))
	crashAt(s, cs, "committed")
	os.WriteFile(filepath.Join(dir, "user.txt"), []byte("u\n"), 0o644)
	gitCmd(t, dir, "add", "user.txt")
	gitCmd(t, dir, "commit", "-qm", "user work")
	l, err := s.takeLock(time.Second)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	if n := strings.Count(gitCmd(t, dir, "log", "--format=%B"), "Curator-Run: crashed"); n != 1 {
		t.Errorf("run committed %d times", n)
	}
	if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("status after recovery:\n%s", st)
	}
}

// crashAt saves cs as run "crashed" and stops it, as a kill would, after
// the save's step.
func crashAt(s *Store, cs *Changeset, step string) {
	defer func() { recover() }()
	s.save(cs, info("crashed"), SaveOptions{Stage: func(at string) {
		if at == step {
			panic("crash")
		}
	}})
}

// recoverStore takes the store's lock, which replays what a crashed run
// left, and lets it go.
func recoverStore(t *testing.T, s *Store) {
	t.Helper()
	l, err := s.takeLock(time.Second)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
}
