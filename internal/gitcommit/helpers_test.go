package gitcommit

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests commit to a folder .curator in a fresh repository, as curator
// commits to its store, and check the result with the real git.

// runGit runs git in dir with stdin and a fixed author.
func runGit(dir, stdin string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@x", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		err = errors.New(strings.Join(args, " ") + ": " + err.Error() + "\n" + string(out))
	}
	return string(out), err
}

// gitCmd runs git and fails the test if it fails.
func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := runGit(dir, "", args...)
	if err != nil {
		t.Fatalf("git %v", err)
	}
	return out
}

// gitIn is gitCmd with stdin, its output trimmed.
func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	out, err := runGit(dir, stdin, args...)
	if err != nil {
		t.Fatalf("git %v", err)
	}
	return strings.TrimSpace(out)
}

func needGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not installed")
	}
}

// testStore is the folder .curator of a work tree, committed to through
// Commit as curator commits to its store.
type testStore struct {
	Dir string // the .curator folder
}

// storeFolders are the folders curator's init makes (with a .keep file).
var storeFolders = []string{
	"context/bullets", "context/archive", "context/reflections/pending",
	"context/reflections/merged", "context/log", "context/metrics",
	"memory/inbox", "memory/confirmed/fact", "memory/confirmed/concept",
	"memory/confirmed/lesson", "memory/trash", "pipelines",
}

// newStore makes a repository (git init, branch main) holding a .curator
// folder laid out as curator's init lays it out, nothing committed yet.
func newStore(t *testing.T) (*testStore, string) {
	t.Helper()
	needGit(t)
	dir := t.TempDir()
	gitCmd(t, dir, "init", "-q", "-b", "main")
	s := &testStore{Dir: filepath.Join(dir, ".curator")}
	for _, f := range storeFolders {
		p := filepath.Join(s.Dir, filepath.FromSlash(f))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(p, ".keep"), nil, 0o644)
	}
	os.WriteFile(filepath.Join(s.Dir, "config.yaml"), []byte("author:\n  name: curator\n"), 0o644)
	os.WriteFile(filepath.Join(s.Dir, ".gitignore"), []byte(".lock\n.journal/\n.cache/\n"), 0o644)
	return s, dir
}

// Path is the absolute path of a store-relative slash path.
func (s *testStore) Path(rel string) string { return filepath.Join(s.Dir, filepath.FromSlash(rel)) }

func (s *testStore) openRepo() (*Repo, error) { return Open(s.Dir) }

func (s *testStore) options() Options {
	return Options{
		Author:      Signature{Name: "curator", Email: "curator@localhost"},
		When:        time.Now(),
		LockTimeout: 10 * time.Second,
		ObjectCache: filepath.Join(s.Dir, ".cache", "objects"),
	}
}

// info is the commit message of a test run.
func info(run string) string {
	return "test " + run + "\n\ndid " + run + "\n\nCurator-Run: " + run + "\nCurator-Command: curator test\n"
}

// Changeset collects a run's changes.
type Changeset struct{ Changes []Change }

func (c *Changeset) Write(p string, data []byte) {
	c.Changes = append(c.Changes, Change{Path: p, Data: data})
}

func (c *Changeset) Move(from, to string, data []byte) {
	c.Changes = append(c.Changes, Change{Path: to, From: from, Data: data})
}

func (c *Changeset) Delete(p string) { c.Changes = append(c.Changes, Change{Path: p, Delete: true}) }

// Save commits the changes, writing the files once the objects are.
func (s *testStore) Save(c *Changeset, msg string) (string, error) {
	r, err := s.openRepo()
	if err != nil {
		return "", err
	}
	apply := func() error {
		for _, ch := range c.Changes {
			if ch.From != "" || ch.Delete {
				p := ch.From
				if ch.Delete {
					p = ch.Path
				}
				if err := os.Remove(s.Path(p)); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
			if !ch.Delete {
				os.MkdirAll(filepath.Dir(s.Path(ch.Path)), 0o755)
				if err := os.WriteFile(s.Path(ch.Path), ch.Data, 0o644); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return Commit(r, c.Changes, msg, apply, s.options())
}

// CommitStore commits every file of the store as it is on disk.
func (s *testStore) CommitStore(msg string) (string, error) {
	c := &Changeset{}
	err := filepath.WalkDir(s.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(s.Dir, p)
		if d.IsDir() {
			if rel == ".cache" {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		c.Write(filepath.ToSlash(rel), data)
		return nil
	})
	if err != nil {
		return "", err
	}
	r, err := s.openRepo()
	if err != nil {
		return "", err
	}
	return Commit(r, c.Changes, msg, nil, s.options())
}

// committedStore is newStore with the store's files committed.
func committedStore(t *testing.T) (*testStore, string) {
	t.Helper()
	needGit(t)
	s, dir := newStore(t)
	if _, err := s.CommitStore(info("init")); err != nil {
		t.Fatal(err)
	}
	return s, dir
}
