package gitcommit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// Commits are built from the object cache when it holds HEAD; they are the
// same with a cold, warm, damaged or outdated cache.
func TestObjectCacheNeverChangesCommits(t *testing.T) {
	needGit(t)
	s, dir := newStore(t)
	cs := &Changeset{}
	for i := 0; i < 1005; i++ {
		cs.Write(fmt.Sprintf("memory/inbox/m%05d.md", i), []byte(fmt.Sprintf("%d\n", i)))
	}
	if _, err := s.Save(cs, info("fill")); err != nil {
		t.Fatal(err)
	}
	cacheFile := filepath.Join(s.Dir, ".cache", "objects")
	cached := func() plumbing.Hash {
		return loadObjectCache(cacheFile).folders[".curator/memory/inbox"].hash
	}
	if got, want := cached().String(), gitCmd(t, dir, "rev-parse", "HEAD:.curator/memory/inbox"); got != strings.TrimSpace(want) {
		t.Fatalf("cached inbox tree %s, HEAD has %s", got, want)
	}
	check := func(step string, inbox int) {
		t.Helper()
		gitCmd(t, dir, "fsck", "--strict")
		if n := strings.Count(gitCmd(t, dir, "ls-tree", "HEAD:.curator/memory/inbox"), "\n"); n != inbox {
			t.Errorf("%s: inbox has %d entries, want %d", step, n, inbox)
		}
		if st := gitCmd(t, dir, "status", "--porcelain", "-uno", ".curator"); st != "" {
			t.Errorf("%s: status:\n%s", step, st)
		}
		if got, want := cached().String(), strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD:.curator/memory/inbox")); got != want {
			t.Errorf("%s: cached inbox tree %s, HEAD has %s", step, got, want)
		}
	}
	// damaged content (one byte of the last tree): not trusted
	data, _ := os.ReadFile(cacheFile)
	data[len(data)-1] ^= 1
	os.WriteFile(cacheFile, data, 0o644)
	cs = &Changeset{}
	cs.Move("memory/inbox/m00001.md", "memory/trash/m00001.md", []byte("trashed\n"))
	if _, err := s.Save(cs, info("move")); err != nil {
		t.Fatal(err)
	}
	check("damaged cache", 1004)
	// garbage: ignored
	os.WriteFile(cacheFile, []byte("garbage that is not a cache"), 0o644)
	cs = &Changeset{}
	cs.Write("memory/inbox/new.md", []byte("new\n"))
	if _, err := s.Save(cs, info("garbage")); err != nil {
		t.Fatal(err)
	}
	check("garbage cache", 1005)
	// warm cache
	cs = &Changeset{}
	cs.Delete("memory/inbox/new.md")
	if _, err := s.Save(cs, info("warm")); err != nil {
		t.Fatal(err)
	}
	check("warm cache", 1004)
	// a user commit on top: HEAD is not the cached commit
	os.WriteFile(filepath.Join(dir, "user.txt"), []byte("user\n"), 0o644)
	gitCmd(t, dir, "add", "user.txt")
	gitCmd(t, dir, "commit", "-qm", "user")
	cs = &Changeset{}
	cs.Write("memory/inbox/after-user.md", []byte("after\n"))
	if _, err := s.Save(cs, info("after user")); err != nil {
		t.Fatal(err)
	}
	check("after a user commit", 1005)
	if got := gitCmd(t, dir, "log", "--format=%s", "-3"); got != "test after user\nuser\ntest warm\n" {
		t.Errorf("history:\n%s", got)
	}
	if got := gitCmd(t, dir, "show", "HEAD:user.txt"); got != "user\n" {
		t.Errorf("the user's file is gone from HEAD: %q", got)
	}
}

// A truncated cache file (a crash before the kernel wrote it back) is
// never rewritten: every later commit runs cold.
func TestDamagedObjectCacheIsRewritten(t *testing.T) {
	needGit(t)
	s, _ := newStore(t)
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("a\n"))
	if _, err := s.Save(cs, info("a")); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(s.Dir, ".cache", "objects")
	data, _ := os.ReadFile(f)
	os.WriteFile(f, data[:len(data)-3], 0o644)
	for _, n := range []string{"b", "c"} {
		cs = &Changeset{}
		cs.Write("memory/inbox/"+n+".md", []byte(n+"\n"))
		if _, err := s.Save(cs, info(n)); err != nil {
			t.Fatal(err)
		}
	}
	if len(loadObjectCache(f).byHash) == 0 {
		t.Error("the object cache stays unusable after it was truncated once")
	}
}
