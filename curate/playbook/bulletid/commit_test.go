package bulletid

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/curator-dev/curator/mdstore"
)

// A run that lists the branches' bullet names and then commits gives the
// cache the names of the category trees its commit made: the names git
// holds in those trees, so the next run reads none of them from git.
func TestCommitNotesItsTreesNames(t *testing.T) {
	s, dir := newStore(t)
	for _, id := range []string{"STRAT-001", "STRAT-002", "STRAT-003"} {
		writeBullet(t, s, true, "strategy", id)
	}
	writeBullet(t, s, true, "api", "API-001")
	writeBullet(t, s, false, "strategy", "STRAT-000")
	commitAll(t, dir, "bullets")

	cacheOf := func() map[string]string {
		t.Helper()
		data, _ := os.ReadFile(filepath.Join(s.Dir, refIDsPath))
		out := map[string]string{}
		for _, line := range strings.Split(string(data), "\n") {
			if h, names, ok := strings.Cut(line, " "); ok {
				out[h] = names
			}
		}
		return out
	}
	treeNames := func(folder string) (string, []string) {
		t.Helper()
		hash := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD:.curator/"+folder))
		var names []string
		for _, n := range strings.Fields(gitCmd(t, dir, "ls-tree", "--name-only", "HEAD:.curator/"+folder)) {
			names = append(names, strings.TrimSuffix(n, ".md"))
		}
		slices.Sort(names)
		return hash, names
	}
	for round, change := range []func(cs *mdstore.Changeset){
		func(cs *mdstore.Changeset) { // a bullet added, one archived (moved), one removed
			cs.Write(mdstore.BulletPath(true, "strategy", "STRAT-004"), []byte("---\nid: STRAT-004\ncategory: strategy\n---\nNew.\n"))
			cs.Move(mdstore.BulletPath(true, "strategy", "STRAT-002"), mdstore.BulletPath(false, "strategy", "STRAT-002"), []byte("---\nid: STRAT-002\ncategory: strategy\n---\nOld.\n"))
			cs.Delete(mdstore.BulletPath(true, "strategy", "STRAT-003"))
		},
		func(cs *mdstore.Changeset) { // a new category
			cs.Write(mdstore.BulletPath(true, "verification", "VERIF-001"), []byte("---\nid: VERIF-001\ncategory: verification\n---\nCheck.\n"))
		},
	} {
		list, err := s.ListBullets(true)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Known(s, list); err != nil { // lists the branches' names
			t.Fatal(err)
		}
		cs := &mdstore.Changeset{}
		change(cs)
		if _, err := save(s, cs, info("run")); err != nil {
			t.Fatal(err)
		}
		cache := cacheOf()
		for _, folder := range []string{"context/bullets/strategy", "context/archive/strategy", "context/bullets/verification"} {
			if round == 0 && folder == "context/bullets/verification" {
				continue
			}
			hash, want := treeNames(folder)
			line, ok := cache[hash]
			if !ok {
				t.Fatalf("round %d: the cache has no names for %s's new tree", round, folder)
			}
			got := strings.Fields(line)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("round %d: %s: cached names %v, git has %v", round, folder, got, want)
			}
		}
	}
	// The next allocation sees every id, archived and removed ones included.
	if got := nextIDs(t, s).Next("strategy"); got != "STRAT-005" {
		t.Errorf("next strategy id %s, want STRAT-005", got)
	}
}

// A git command that holds a branch's lock beside a run (git commit, or
// the pack-refs of git gc) does not stop the run from gathering the ids of
// the branches.
func TestKnownIDsBesideABranchLock(t *testing.T) {
	s, dir := newStore(t)
	writeBullet(t, s, true, "strategy", "STRAT-001")
	commitAll(t, dir, "bullets")
	gitCmd(t, dir, "branch", "other")
	lock := filepath.Join(dir, ".git", "refs", "heads", "main.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil { // git is writing it
		t.Fatal(err)
	}
	if got := nextIDs(t, s).Next("strategy"); got != "STRAT-002" {
		t.Errorf("next strategy id %s, want STRAT-002", got)
	}
}
