package gitcommit

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// countObjects is git's count of loose objects and packs.
func countObjects(t *testing.T, dir string) (loose, packs int) {
	t.Helper()
	for _, line := range strings.Split(gitCmd(t, dir, "count-objects", "-v"), "\n") {
		k, v, _ := strings.Cut(line, ": ")
		n, _ := strconv.Atoi(v)
		switch k {
		case "count":
			loose = n
		case "packs":
			packs = n
		}
	}
	return loose, packs
}

// waitForGC waits until the background `git gc` ends (its gc.pid is gone)
// and the repository passes cond.
func waitForGC(t *testing.T, dir string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join(dir, ".git", "gc.pid")); os.IsNotExist(err) && cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the background git gc did not repack within 2 minutes")
}

// Past gc.auto loose objects (estimated from objects/17 as git does), a
// commit starts git's gc: the loose objects go into a pack and git finds
// the repository sound.
func TestCommitRepacksLooseObjects(t *testing.T) {
	s, dir := committedStore(t)
	// Runs of loose objects until objects/17 holds two, without a repack.
	gitCmd(t, dir, "config", "gc.auto", "0")
	r, err := s.openRepo()
	if err != nil {
		t.Fatal(err)
	}
	for run := 0; looseIn17(filepath.Join(dir, ".git", "objects")) < 2; run++ {
		cs := &Changeset{}
		for i := 0; i < LooseLimit/2; i++ {
			cs.Write(fmt.Sprintf("memory/inbox/r%d-%d.md", run, i), []byte(fmt.Sprintf("run %d file %d\n", run, i)))
		}
		if _, err := s.Save(cs, info(fmt.Sprint("fill ", run))); err != nil {
			t.Fatal(err)
		}
		if Repack(r) {
			t.Fatal("gc.auto=0 repacked")
		}
	}
	before, _ := countObjects(t, dir)
	gitCmd(t, dir, "config", "gc.auto", "256") // repack past 1 loose object in objects/17
	cs := &Changeset{}
	cs.Write("memory/inbox/last.md", []byte("last\n"))
	if _, err := s.Save(cs, info("last")); err != nil {
		t.Fatal(err)
	}
	waitForGC(t, dir, func() bool { loose, _ := countObjects(t, dir); return loose < before })
	loose, packs := countObjects(t, dir)
	t.Logf("loose objects %d → %d, %d pack(s)", before, loose, packs)
	gitCmd(t, dir, "fsck", "--strict")
	if got := strings.Count(gitCmd(t, dir, "ls-tree", "HEAD:.curator/memory/inbox"), "\n"); got < LooseLimit {
		t.Errorf("HEAD's inbox holds %d files after the repack", got)
	}
}

// Past gc.autoPackLimit packs (one per large run), a commit starts git's
// gc, which joins them.
func TestCommitJoinsPacks(t *testing.T) {
	s, dir := committedStore(t)
	gitCmd(t, dir, "config", "gc.autoPackLimit", "3")
	for run := 0; run < 4; run++ {
		cs := &Changeset{}
		for i := 0; i < 2*LooseLimit; i++ {
			cs.Write(fmt.Sprintf("memory/inbox/r%d-%d.md", run, i), []byte(fmt.Sprintf("run %d file %d\n", run, i)))
		}
		if _, err := s.Save(cs, info(fmt.Sprint("pack ", run))); err != nil {
			t.Fatal(err)
		}
	}
	waitForGC(t, dir, func() bool { _, packs := countObjects(t, dir); return packs == 1 })
	gitCmd(t, dir, "fsck", "--strict")
	if got := strings.Count(gitCmd(t, dir, "ls-tree", "HEAD:.curator/memory/inbox"), "\n"); got != 8*LooseLimit+1 {
		t.Errorf("HEAD's inbox holds %d files after the repack", got)
	}
}

// git's thresholds, read as git reads them.
func TestNeedsRepackFollowsGitSettings(t *testing.T) {
	s, dir := committedStore(t)
	open := func() *Repo {
		r, err := s.openRepo()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := open(); r.cfg.gcAuto != 6700 || r.cfg.gcAutoPackLimit != 50 || needsRepack(r) {
		t.Errorf("defaults: gc.auto %d, gc.autoPackLimit %d, repack %v", r.cfg.gcAuto, r.cfg.gcAutoPackLimit, needsRepack(r))
	}
	gitCmd(t, dir, "config", "gc.auto", "1k")
	gitCmd(t, dir, "config", "gc.autoPackLimit", "1")
	if r := open(); r.cfg.gcAuto != 1024 || r.cfg.gcAutoPackLimit != 1 || needsRepack(r) {
		t.Errorf("gc.auto=1k, gc.autoPackLimit=1, no pack: gc.auto %d, repack %v", r.cfg.gcAuto, needsRepack(r))
	}
	gitCmd(t, dir, "config", "gc.auto", "0") // two packs, no repack yet
	for run := 0; run < 2; run++ {
		cs := &Changeset{}
		for i := 0; i < 2*LooseLimit; i++ {
			cs.Write(fmt.Sprintf("memory/inbox/r%d-%d.md", run, i), []byte(fmt.Sprintf("run %d file %d\n", run, i)))
		}
		if _, err := s.Save(cs, info(fmt.Sprint("pack ", run))); err != nil {
			t.Fatal(err)
		}
	}
	gitCmd(t, dir, "config", "gc.auto", "1k")
	if _, packs := countObjects(t, dir); packs != 2 || !needsRepack(open()) {
		t.Errorf("%d packs, limit 1: no repack", packs)
	}
	gitCmd(t, dir, "config", "gc.auto", "0")
	if needsRepack(open()) {
		t.Error("gc.auto=0 asks for a repack")
	}
}
