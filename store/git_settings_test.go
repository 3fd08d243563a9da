package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curator-dev/curator/internal/gitcommit"
)

// repoSnapshot is what a refused run must leave exactly as it was: HEAD,
// the branch, the git index's bytes and the store's files.
type repoSnapshot struct {
	head, headFile string
	index          []byte
	files          map[string]string
}

// storeFiles reads every file of the store except its private working
// files (.lock, .journal/, .cache/).
func storeFiles(t *testing.T, s *Store) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := s.walkFiles(func(rel, p string, _ fs.DirEntry) error {
		b, err := os.ReadFile(p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func gitPath(t *testing.T, dir, name string) string {
	t.Helper()
	p := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "--git-path", name))
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return p
}

func snapshot(t *testing.T, s *Store, dir string) repoSnapshot {
	t.Helper()
	idx, err := os.ReadFile(gitPath(t, dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	head, _ := os.ReadFile(gitPath(t, dir, "HEAD"))
	return repoSnapshot{
		head:     strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD")),
		headFile: string(head),
		index:    idx,
		files:    storeFiles(t, s),
	}
}

// journals lists the journals (and unfinished journal files) a run left.
func journals(s *Store) []string {
	m, _ := filepath.Glob(filepath.Join(s.Dir, ".journal", "*.journal"))
	tmp, _ := filepath.Glob(filepath.Join(s.Dir, ".journal", ".tmp-*"))
	return append(m, tmp...)
}

// unchangedSince checks that a refused run left the repository and the
// store exactly as they were, with no journal and no git lock.
func (want repoSnapshot) unchangedSince(t *testing.T, s *Store, dir, what string) {
	t.Helper()
	got := snapshot(t, s, dir)
	if got.head != want.head || got.headFile != want.headFile {
		t.Errorf("%s: HEAD moved: %s (%q), was %s (%q)", what, got.head, got.headFile, want.head, want.headFile)
	}
	if !bytes.Equal(got.index, want.index) {
		t.Errorf("%s: the git index changed", what)
	}
	for p, c := range want.files {
		if g, ok := got.files[p]; !ok || g != c {
			t.Errorf("%s: store file %s changed", what, p)
		}
	}
	for p := range got.files {
		if _, ok := want.files[p]; !ok {
			t.Errorf("%s: store file %s appeared", what, p)
		}
	}
	if j := journals(s); len(j) != 0 {
		t.Errorf("%s: journal left: %v", what, j)
	}
	for _, l := range []string{"index.lock", "HEAD.lock"} {
		if _, err := os.Stat(gitPath(t, dir, l)); err == nil {
			t.Errorf("%s: %s left", what, l)
		}
	}
}

// settingRun is a run that writes, moves and deletes records.
func settingRun(run string) *Changeset {
	cs := &Changeset{}
	cs.Write("memory/inbox/"+run+".md", []byte("---\nid: "+run+"\n---\nnew\n"))
	cs.Move("memory/inbox/a.md", "memory/confirmed/fact/a.md", []byte("---\nid: a\nstatus: confirmed\n---\n"))
	cs.Delete("memory/inbox/b.md")
	return cs
}

// settingsRepo is a committed store with two records, a.md and b.md, in a
// repository made by `git init` (go-git writes no
// core.repositoryformatversion, and without it git ignores
// config.worktree, where `git sparse-checkout` keeps its settings).
func settingsRepo(t *testing.T) (*Store, string) {
	t.Helper()
	needGit(t)
	dir := t.TempDir()
	return storeWithTwoRecords(t, dir), dir
}

// A split git index (core.splitIndex, or `git update-index --split-index`
// alone) is refused before anything changes: HEAD, the index and the store
// are as they were and no journal is left; after the user turns it off,
// the run commits.
func TestSplitIndexIsRefusedBeforeAnythingChanges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string // core.splitIndex, "" for unset
		split  bool   // git update-index --split-index
	}{
		{"config and split index", "true", true},
		{"split index, config false", "false", true},
		{"split index, config unset", "", true},
		{"config only", "true", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := settingsRepo(t)
			if tc.config != "" {
				gitCmd(t, dir, "config", "core.splitIndex", tc.config)
			}
			if tc.split {
				gitCmd(t, dir, "update-index", "--split-index")
				if m, _ := filepath.Glob(filepath.Join(dir, ".git", "sharedindex.*")); len(m) == 0 {
					t.Fatal("git wrote no shared index")
				}
			}
			before := snapshot(t, s, dir)
			_, err := s.save(settingRun("r1"), info("r1"), SaveOptions{})
			if !errors.Is(err, ErrGitSetting) || !strings.Contains(err.Error(), "split") {
				t.Fatalf("Save: got %v, want ErrGitSetting about the split index", err)
			}
			before.unchangedSince(t, s, dir, "refused run")
			if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
				t.Errorf("status after the refused run:\n%s", st)
			}
			gitCmd(t, dir, "fsck", "--strict")
			if err := s.CheckCommit(); tc.config == "true" && !errors.Is(err, ErrGitSetting) {
				t.Errorf("CheckCommit: got %v", err)
			}

			// The fix the message gives works.
			gitCmd(t, dir, "config", "core.splitIndex", "false")
			gitCmd(t, dir, "update-index", "--no-split-index")
			hash, err := s.save(settingRun("r2"), info("r2"), SaveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD")); got != hash {
				t.Errorf("HEAD %s, run %s", got, hash)
			}
			if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
				t.Errorf("status:\n%s", st)
			}
			gitCmd(t, dir, "fsck", "--strict")
		})
	}
}

// sparseRepo is settingsRepo with user folders other/ and hidden/.
func sparseRepo(t *testing.T) (*Store, string) {
	t.Helper()
	s, dir := settingsRepo(t)
	for _, f := range []string{"other/o.txt", "hidden/h.txt", "hidden/deep/d.txt", "top.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f+"\n"), 0o644)
	}
	gitCmd(t, dir, "add", ".")
	gitCmd(t, dir, "commit", "-qm", "user folders")
	return s, dir
}

// A sparse checkout in cone mode with a full index (the store inside the
// cone) commits as usual, and keeps the index entries of the folders out
// of the cone marked skip-worktree.
func TestSparseCheckoutWithFullIndex(t *testing.T) {
	s, dir := sparseRepo(t)
	gitCmd(t, dir, "config", "index.sparse", "false")
	gitCmd(t, dir, "sparse-checkout", "set", "--cone", ".curator", "other")
	if _, err := os.Stat(filepath.Join(dir, "hidden")); err == nil {
		t.Fatal("git left hidden/ in the work tree")
	}
	hash, err := s.save(settingRun("r1"), info("r1"), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD")); got != hash {
		t.Errorf("HEAD %s, run %s", got, hash)
	}
	gitCmd(t, dir, "fsck", "--strict")
	if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("status after the run:\n%s", st)
	}
	tags := gitCmd(t, dir, "ls-files", "-t")
	for _, want := range []string{"S hidden/h.txt\n", "S hidden/deep/d.txt\n", "H other/o.txt\n", "H .curator/memory/confirmed/fact/a.md\n", "H .curator/memory/inbox/r1.md\n"} {
		if !strings.Contains(tags, want) {
			t.Errorf("index lacks %q:\n%s", want, tags)
		}
	}
	if strings.Contains(tags, ".curator/memory/inbox/b.md") || strings.Contains(tags, ".curator/memory/inbox/a.md") {
		t.Errorf("index keeps removed paths:\n%s", tags)
	}
	if got := gitCmd(t, dir, "show", "HEAD:hidden/h.txt"); got != "hidden/h.txt\n" {
		t.Errorf("the commit lost a file out of the cone: %q", got)
	}
	// The user's next commit and a change of cone work.
	os.WriteFile(filepath.Join(dir, "other", "o.txt"), []byte("changed\n"), 0o644)
	gitCmd(t, dir, "commit", "-qam", "user")
	gitCmd(t, dir, "sparse-checkout", "disable")
	if b, _ := os.ReadFile(filepath.Join(dir, "hidden", "h.txt")); string(b) != "hidden/h.txt\n" {
		t.Errorf("hidden/h.txt after disabling the sparse checkout: %q", b)
	}
	if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("status after the user's commit:\n%s", st)
	}
	gitCmd(t, dir, "fsck", "--strict")
}

// A sparse index (folders out of the cone stand for their files) is
// refused before anything changes, whether the setting says so
// (index.sparse) or only the index file does.
func TestSparseIndexIsRefusedBeforeAnythingChanges(t *testing.T) {
	for _, tc := range []struct {
		name       string
		configOff  bool // index.sparse set back to false after git wrote a sparse index
		wantConfig bool // CheckCommit refuses too
	}{
		{"index.sparse true", false, true},
		{"sparse index file, setting false", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := sparseRepo(t)
			gitCmd(t, dir, "sparse-checkout", "init", "--cone", "--sparse-index")
			gitCmd(t, dir, "sparse-checkout", "set", ".curator", "other")
			if tags := gitCmd(t, dir, "ls-files", "-t", "--sparse"); !strings.Contains(tags, "S hidden/\n") {
				t.Fatalf("git wrote no sparse index:\n%s", tags)
			}
			if tc.configOff {
				gitCmd(t, dir, "config", "--worktree", "index.sparse", "false")
			}
			before := snapshot(t, s, dir)
			_, err := s.save(settingRun("r1"), info("r1"), SaveOptions{})
			if !errors.Is(err, ErrGitSetting) || !strings.Contains(err.Error(), "sparse") {
				t.Fatalf("Save: got %v, want ErrGitSetting about the sparse index", err)
			}
			before.unchangedSince(t, s, dir, "refused run")
			if err := s.CheckCommit(); tc.wantConfig != errors.Is(err, ErrGitSetting) {
				t.Errorf("CheckCommit: got %v", err)
			}
			if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
				t.Errorf("status after the refused run:\n%s", st)
			}
			gitCmd(t, dir, "fsck", "--strict")

			// The fix the message gives works.
			gitCmd(t, dir, "sparse-checkout", "init", "--no-sparse-index")
			if _, err := s.save(settingRun("r2"), info("r2"), SaveOptions{}); err != nil {
				t.Fatal(err)
			}
			if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
				t.Errorf("status:\n%s", st)
			}
			gitCmd(t, dir, "fsck", "--strict")
		})
	}
}

// A pack file without its index in objects/pack (left by a writer that
// died, or put there by hand) is ignored, as git ignores it: small and
// large runs still commit, and git finds nothing wrong.
func TestStrayPackWithoutIndexIsIgnored(t *testing.T) {
	s, dir := settingsRepo(t)
	// A user commit, so the run reads HEAD through the object store
	// rather than from curator's cache of its own last commit.
	os.WriteFile(filepath.Join(dir, "user.txt"), []byte("user\n"), 0o644)
	gitCmd(t, dir, "add", "user.txt")
	gitCmd(t, dir, "commit", "-qm", "user")
	packDir := filepath.Join(dir, ".git", "objects", "pack")
	os.MkdirAll(packDir, 0o755)
	stray := filepath.Join(packDir, "pack-"+strings.Repeat("ab", 20)+".pack")
	if err := os.WriteFile(stray, bytes.Repeat([]byte("garbage\x00"), 512), 0o444); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(s.Dir, ".cache"))
	if _, err := s.save(settingRun("small"), info("small"), SaveOptions{}); err != nil {
		t.Fatalf("small run beside a stray pack: %v", err)
	}
	gitCmd(t, dir, "fsck", "--strict")
	// A large run writes a pack of its own beside the stray one; the run
	// after it reads HEAD from that pack.
	gitCmd(t, dir, "commit", "-q", "--allow-empty", "-m", "user 2")
	cs := &Changeset{}
	for i := 0; i < 2*gitcommit.LooseLimit; i++ {
		cs.Write(fmt.Sprintf("memory/inbox/m%04d.md", i), []byte(fmt.Sprintf("%d\n", i)))
	}
	if _, err := s.save(cs, info("large"), SaveOptions{}); err != nil {
		t.Fatalf("large run beside a stray pack: %v", err)
	}
	gitCmd(t, dir, "repack", "-q", "-d") // HEAD's objects only in packs now
	if _, err := os.Stat(stray); err != nil {
		t.Fatalf("the stray pack is gone (%v); the next run would not meet it", err)
	}
	gitCmd(t, dir, "commit", "-q", "--allow-empty", "-m", "user 3")
	os.RemoveAll(filepath.Join(s.Dir, ".cache"))
	cs = &Changeset{}
	cs.Delete("memory/inbox/m0000.md")
	hash, err := s.save(cs, info("after repack"), SaveOptions{})
	if err != nil {
		t.Fatalf("run reading packed objects beside a stray pack: %v", err)
	}
	if got := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD")); got != hash {
		t.Errorf("HEAD %s, run %s", got, hash)
	}
	gitCmd(t, dir, "fsck", "--strict")
	if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("status:\n%s", st)
	}
}
