//go:build linux

package store

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/curator-dev/curator/internal/gitcommit"
)

// mountTmpfs mounts a tmpfs of sizeKiB at a new folder (unmounted when the
// test ends), or skips the test where mounting is not allowed (not root).
func mountTmpfs(t *testing.T, sizeKiB int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%dk", sizeKiB), "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

func freeBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Bavail) * int64(st.Bsize)
}

// fillTo writes a filler file so that only freeKiB stay free on the file
// system of dir.
func fillTo(t *testing.T, dir string, freeKiB int) string {
	t.Helper()
	filler := filepath.Join(dir, "filler")
	n := freeBytes(t, dir) - int64(freeKiB)*1024
	if n <= 0 {
		t.Fatalf("only %d bytes free before filling", freeBytes(t, dir))
	}
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 1<<20)
	for n > 0 {
		w := min(n, int64(len(chunk)))
		if _, err := f.Write(chunk[:w]); err != nil {
			t.Fatalf("writing the filler: %v", err)
		}
		n -= w
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return filler
}

// spaceRun is a run of n new records of about 1 KiB, plus a move and a
// delete of the two records spaceRepo made.
func spaceRun(n int) *Changeset {
	cs := &Changeset{}
	body := strings.Repeat("a line of a memory that is about one kibibyte long.\n", 20)
	for i := 0; i < n; i++ {
		cs.Write(fmt.Sprintf("memory/inbox/s%04d.md", i), []byte(fmt.Sprintf("---\nid: s%04d\n---\n%s", i, body)))
	}
	cs.Move("memory/inbox/a.md", "memory/confirmed/fact/a.md", []byte("---\nid: a\nstatus: confirmed\n---\n"))
	cs.Delete("memory/inbox/b.md")
	return cs
}

// afterRun is what the store holds once cs is applied to files.
func afterRun(files map[string]string, cs *Changeset) map[string]string {
	out := map[string]string{}
	for p, c := range files {
		out[p] = c
	}
	for _, ch := range cs.Changes {
		if ch.From != "" {
			delete(out, ch.From)
		}
		if ch.Delete {
			delete(out, ch.Path)
		} else {
			out[ch.Path] = string(ch.Data)
		}
	}
	return out
}

func diffFiles(got, want map[string]string) []string {
	var d []string
	for p, c := range want {
		if g, ok := got[p]; !ok {
			d = append(d, "missing "+p)
		} else if g != c {
			d = append(d, "changed "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			d = append(d, "extra "+p)
		}
	}
	sort.Strings(d)
	if len(d) > 5 {
		d = append(d[:5], fmt.Sprintf("and %d more", len(d)-5))
	}
	return d
}

// checkObjects fails on a pack without its index and on temporary object
// files left in the object folder.
func checkObjects(t *testing.T, gitDir, what string) {
	t.Helper()
	err := filepath.WalkDir(filepath.Join(gitDir, "objects"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if strings.HasPrefix(name, "tmp_") {
			t.Errorf("%s: temporary object file left: %s", what, p)
		}
		if strings.HasSuffix(name, ".pack") {
			if _, err := os.Stat(strings.TrimSuffix(p, ".pack") + ".idx"); err != nil {
				t.Errorf("%s: pack without its index: %s", what, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// fullDiskRun makes, on a tmpfs with only freeKiB free, a run of files
// new records (plus a move and a delete), checks that it committed or left
// the repository and the store as they were (or a journal), then frees the
// space and checks that recovery and the next runs commit. It returns
// where the run stopped.
func fullDiskRun(t *testing.T, files, free int) (phase string) {
	mnt := mountTmpfs(t, 16<<10)
	dir := filepath.Join(mnt, "repo")
	os.MkdirAll(dir, 0o755)
	s := storeWithTwoRecords(t, dir)
	os.WriteFile(filepath.Join(dir, "user.txt"), []byte("user\n"), 0o644)
	gitCmd(t, dir, "add", "user.txt")
	gitCmd(t, dir, "commit", "-qm", "user")
	gitDir := filepath.Join(dir, ".git")

	before := snapshot(t, s, dir)
	cs := spaceRun(files)
	want := afterRun(before.files, cs)
	filler := fillTo(t, mnt, free)
	hash, saveErr := s.save(cs, info("full"), SaveOptions{})

	outcome := "committed"
	journal := len(journals(s)) > 0
	if saveErr == nil {
		head := strings.TrimSpace(gitOK(t, dir, "HEAD", "rev-parse", "HEAD"))
		if head != hash {
			t.Errorf("HEAD %s, the run's commit %s", head, hash)
		}
		if d := diffFiles(storeFiles(t, s), want); len(d) != 0 {
			t.Errorf("committed run, store files: %v", d)
		}
		if journal {
			t.Errorf("committed run left a journal: %v", journals(s))
		}
	} else {
		head := strings.TrimSpace(gitOK(t, dir, "HEAD", "rev-parse", "HEAD"))
		if head != before.head {
			t.Errorf("failed run (%v) moved HEAD to %s", saveErr, head)
		}
		got := storeFiles(t, s)
		switch {
		case journal:
			outcome = "failed, journal kept"
		case len(diffFiles(got, before.files)) == 0:
			outcome = "failed, nothing changed"
		default:
			outcome = "failed, BROKEN"
			t.Errorf("failed run (%v) changed the store and left no journal: %v", saveErr, diffFiles(got, before.files))
		}
		if !errors.Is(saveErr, syscall.ENOSPC) {
			t.Logf("error is not ENOSPC: %v", saveErr)
		}
		t.Logf("%s: %v", outcome, saveErr)
	}
	for _, l := range []string{"index.lock", "HEAD.lock", "refs/heads/main.lock"} {
		if _, err := os.Stat(filepath.Join(gitDir, l)); err == nil {
			t.Errorf("%s left", l)
		}
	}
	checkObjects(t, gitDir, "on the full disk")
	gitOK(t, dir, "fsck on the full disk", "fsck", "--strict", "--no-dangling")
	gitOK(t, dir, "status on the full disk", "--no-optional-locks", "status", "--porcelain")
	phase = outcome
	if saveErr != nil {
		phase = failurePhase(saveErr)
	}

	// Space again: the next lock recovers, the next run commits.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	l, err := s.takeLock(time.Second)
	if err != nil {
		t.Fatalf("recovery with space: %v", err)
	}
	defer l.Unlock()
	if j := journals(s); len(j) != 0 {
		t.Errorf("journal left after recovery: %v", j)
	}
	log := gitOK(t, dir, "log", "log", "--format=%B")
	if saveErr == nil || journal {
		if !strings.Contains(log, "Curator-Run: full\n") {
			t.Errorf("the run (%s) is not in history after recovery", outcome)
		}
		if d := diffFiles(storeFiles(t, s), want); len(d) != 0 {
			t.Errorf("after recovery, store files: %v", d)
		}
	} else if strings.Contains(log, "Curator-Run: full\n") {
		t.Errorf("a run that changed nothing is in history")
	}
	next := &Changeset{}
	next.Write("memory/inbox/next.md", []byte("---\nid: next\n---\n"))
	if _, err := s.save(next, info("next"), SaveOptions{}); err != nil {
		t.Fatalf("the next run with space: %v", err)
	}
	if saveErr != nil && !journal {
		// The failed run changed nothing; run it again.
		if _, err := s.save(cs, info("again"), SaveOptions{}); err != nil {
			t.Fatalf("the failed run again with space: %v", err)
		}
	}
	checkObjects(t, gitDir, "with space")
	gitOK(t, dir, "fsck with space", "fsck", "--strict")
	if st := gitOK(t, dir, "status with space", "status", "--porcelain"); st != "" {
		t.Errorf("status with space:\n%s", st)
	}
	wantNext := afterRun(want, next)
	if d := diffFiles(storeFiles(t, s), wantNext); len(d) != 0 {
		t.Errorf("final store files: %v", d)
	}
	if got := gitOK(t, dir, "ls-tree", "ls-tree", "-r", "--name-only", "HEAD", ".curator/memory/inbox"); strings.Count(got, "\n") != files+2 { // + .keep, next.md
		t.Errorf("HEAD's inbox has %d files, want %d", strings.Count(got, "\n"), files+2)
	}
	return phase
}

// failurePhase names the step a run on a full disk stopped at.
func failurePhase(err error) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "writing journal"):
		return "failed writing the journal, nothing changed"
	case strings.HasPrefix(msg, "applying run"):
		return "failed changing the files, journal kept"
	case strings.Contains(msg, "tmp_pack_") || strings.Contains(msg, "tmp_idx_"):
		return "failed writing the pack, nothing changed"
	case strings.HasPrefix(msg, "writing git object"):
		return "failed writing loose objects, nothing changed"
	case strings.Contains(msg, "index.lock"):
		return "failed writing the index, journal kept"
	case strings.HasPrefix(msg, "updating refs/"):
		return "failed moving the branch, journal kept"
	}
	return "failed: " + msg
}

// A run on a file system that is full, or fills up during the run, either
// commits or leaves the repository and the store as they were (or a
// journal the next run replays): HEAD unchanged, no pack without its
// index, the index readable, git fsck clean. Once there is space again,
// the next run recovers and commits, and git finds nothing wrong.
//
// Free space levels: a few coarse ones, then (not with -short) bisection
// to 4 KiB (a tmpfs page) between levels where the run stopped at
// different steps, so that every step where the disk can fill up is met.
func TestRunsOnAFullDisk(t *testing.T) {
	needGit(t)
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	for _, kind := range []struct {
		name   string
		files  int
		coarse []int
	}{
		{"large", 400, []int{0, 256, 512, 1024, 2048, 4096}},              // a pack
		{"small", gitcommit.LooseLimit / 16, []int{0, 64, 128, 256, 512}}, // loose objects
	} {
		phases := map[int]string{}
		probe := func(free int) string {
			if p, ok := phases[free]; ok {
				return p
			}
			phase := "test failed"
			t.Run(fmt.Sprintf("%s/%dKiB", kind.name, free), func(t *testing.T) {
				phase = fullDiskRun(t, kind.files, free)
			})
			phases[free] = phase
			return phase
		}
		var bisect func(lo, hi int)
		bisect = func(lo, hi int) {
			if hi-lo <= 4 || probe(lo) == probe(hi) {
				return
			}
			mid := (lo + hi) / 2 &^ 3
			bisect(lo, mid)
			bisect(mid, hi)
		}
		for _, free := range kind.coarse {
			probe(free)
		}
		if last := kind.coarse[len(kind.coarse)-1]; phases[last] != "committed" {
			t.Errorf("%s run with %d KiB free: %s", kind.name, last, phases[last])
		}
		if !testing.Short() {
			for i := 1; i < len(kind.coarse); i++ {
				bisect(kind.coarse[i-1], kind.coarse[i])
			}
		}
		levels := make([]int, 0, len(phases))
		for k := range phases {
			levels = append(levels, k)
		}
		sort.Ints(levels)
		for i, k := range levels {
			if i == 0 || phases[k] != phases[levels[i-1]] {
				t.Logf("%s run, from %4d KiB free: %s", kind.name, k, phases[k])
			}
		}
	}
}
