package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A curator run killed while it holds one of git's lock files (index.lock,
// HEAD.lock, the branch's lock) leaves nothing behind that the next run
// does not clear: the next curator command succeeds, and git add, git
// commit, git status and git fsck work. Each committing command is killed
// many times, by itself the instant its n-th lock file exists
// (CURATOR_KILL_AT_LOCK), and every other time by this test the instant it
// sees .git/index.lock appear.

// killCase is one committing command and how to prepare its runs.
type killCase struct {
	name string
	// setup makes the repository the command runs in.
	setup func(t *testing.T) (dir string)
	// prepare readies iteration i and returns the command to kill; next
	// is the command run after the kill, which must succeed.
	prepare func(t *testing.T, i int) (args, next []string)
	// after finishes an iteration once next succeeded (resolve: git commit).
	after func(t *testing.T, dir string)
	// locks is how many lock files a run creates, at most.
	locks int
	// poll has every other run killed by the test on seeing index.lock
	// (resolve holds it too briefly to be seen).
	poll bool
}

// The commands are killed side by side, each up to maxKills times within
// killBudget (and at least minKills times), so the test's time is bounded.
const (
	maxKills   = 20
	minKills   = 4
	killBudget = 20 * time.Second
)

func TestKilledHoldingGitLock(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs the git binary")
	}
	gitEnv(t)
	// Side by side without t.Parallel, which runs only GOMAXPROCS at once.
	var wg sync.WaitGroup
	for _, c := range killCases(t.TempDir()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) { killRepeatedly(t, c) })
		}()
	}
	wg.Wait()
}

func killRepeatedly(t *testing.T, c killCase) {
	dir := c.setup(t)
	kills, seen, left, fails := 0, 0, 0, 0
	start := time.Now()
	for i := 0; i < maxKills && (i < minKills || time.Since(start) < killBudget); i++ {
		args, next := c.prepare(t, i)
		killed, external := false, c.poll && i%2 == 1
		if external {
			killed = runKilledOnLock(t, dir, args)
		} else {
			killed = runKilledAt(t, dir, args, 1+(i/2)%c.locks)
		}
		if killed {
			kills++
			if external {
				seen++
			}
			lockLeft, problem := checkAfterKill(t, dir, next)
			if lockLeft {
				left++
			}
			if problem != "" {
				fails++
				if fails <= 3 {
					t.Errorf("kill %d (%s): %s", i, killWay(external), problem)
				}
				// Remove the locks as a user would, so the next kills
				// mean something.
				clearLocks(t, dir)
				if out, err := runCurator(dir, next); err != nil {
					t.Fatalf("curator %s after removing the locks: %v\n%s", strings.Join(next, " "), err, out)
				}
			}
		}
		if c.after != nil {
			c.after(t, dir)
		}
	}
	if out, err := gitOut(dir, "fsck", "--no-progress", "--no-dangling"); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("git fsck after the kills: %v\n%s", err, out)
	}
	t.Logf("%s: %d kills (%d by itself at a lock, %d on seeing index.lock), %d left a git lock, %d failed, in %v",
		c.name, kills, kills-seen, seen, left, fails, time.Since(start).Round(time.Millisecond))
	if kills < minKills/2 {
		t.Errorf("only %d of the runs were killed holding a lock", kills)
	}
}

func killWay(external bool) string {
	if external {
		return "killed on seeing index.lock"
	}
	return "killed itself at a lock"
}

// runKilledAt runs args in dir, the process killing itself the instant its
// n-th git lock file exists; it reports whether it was killed.
func runKilledAt(t *testing.T, dir string, args []string, n int) bool {
	t.Helper()
	cmd := exec.Command("curator", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), fmt.Sprintf("CURATOR_KILL_AT_LOCK=%d", n))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	return wasKilled(t, args, err, stderr.String())
}

// runKilledOnLock runs args in dir and kills the process as soon as
// .git/index.lock exists; it reports whether it was killed.
func runKilledOnLock(t *testing.T, dir string, args []string) bool {
	t.Helper()
	cmd := exec.Command("curator", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	lock := filepath.Join(dir, ".git", "index.lock")
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-done:
			return wasKilled(t, args, err, stderr.String())
		default:
		}
		if _, err := os.Lstat(lock); err == nil {
			cmd.Process.Kill()
			return wasKilled(t, args, <-done, stderr.String())
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("curator %s: still running after 30s", strings.Join(args, " "))
		}
	}
}

func wasKilled(t *testing.T, args []string, err error, stderr string) bool {
	t.Helper()
	if err == nil {
		return false
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && !ee.Exited() {
		return true
	}
	t.Fatalf("curator %s: %v\n%s", strings.Join(args, " "), err, stderr)
	return false
}

// checkAfterKill runs the next command and checks that it succeeded, that
// it left no lock and finished the journal, and that git status works. lockLeft reports a git lock file that
// the next command found or left.
func checkAfterKill(t *testing.T, dir string, next []string) (lockLeft bool, problem string) {
	t.Helper()
	before := gitLocks(t, dir)
	out, err := runCurator(dir, next)
	after := gitLocks(t, dir)
	lockLeft = len(before) > 0 && len(after) > 0
	if err != nil {
		return lockLeft, fmt.Sprintf("next run curator %s: %v (locks %v)\n%s", strings.Join(next, " "), err, before, out)
	}
	if len(after) > 0 {
		return true, fmt.Sprintf("git lock files left after the next run: %v", after)
	}
	if j, _ := filepath.Glob(filepath.Join(dir, ".curator", ".journal", "*.journal")); len(j) > 0 {
		return false, fmt.Sprintf("journal not finished: %v", j)
	}
	if out, err := gitOut(dir, "status", "--porcelain", "--untracked-files=no"); err != nil {
		return false, fmt.Sprintf("git status: %v\n%s", err, out)
	}
	return false, ""
}

// userCommit makes a commit the way a user would, with git add and git
// commit, proving git's locks are free.
func userCommit(t *testing.T, dir string) {
	t.Helper()
	name := fmt.Sprintf("user-%d.txt", time.Now().UnixNano())
	write(t, filepath.Join(dir, name), []byte(name+"\n"))
	for _, args := range [][]string{{"add", name}, {"commit", "-q", "-m", "user " + name}} {
		if out, err := gitOut(dir, args...); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// gitLocks lists the lock files under .git.
func gitLocks(t *testing.T, dir string) []string {
	t.Helper()
	var locks []string
	filepath.WalkDir(filepath.Join(dir, ".git"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lock") {
			rel, _ := filepath.Rel(dir, p)
			locks = append(locks, rel)
		}
		return nil
	})
	return locks
}

func clearLocks(t *testing.T, dir string) {
	for _, l := range gitLocks(t, dir) {
		os.Remove(filepath.Join(dir, l))
	}
}

func runCurator(dir string, args []string) (string, error) {
	cmd := exec.Command("curator", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitOut(dir, args...)
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return out
}

// killStore makes a git repository with a store whose git lock wait is
// short, so a left lock fails the next run quickly.
func killStore(t *testing.T, dir string) {
	t.Helper()
	mustGit(t, filepath.Dir(dir), "init", "-q", "-b", "main", dir)
	curator(t, dir, "init")
	cfg := filepath.Join(dir, ".curator", "config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	write(t, cfg, bytes.Replace(b, []byte("lock_timeout: 10s"), []byte("lock_timeout: 500ms"), 1))
	mustGit(t, dir, "add", "-A", ".")
	mustGit(t, dir, "commit", "-q", "-m", "short lock wait")
}

func addMemory(t *testing.T, dir, id, body string, extra ...string) {
	t.Helper()
	args := append([]string{"memory", "add", "--type", "fact", "--brief", "fact " + id, "--author", "agent",
		"--proximity", "0.9", "--confidence", "5", "--surprisal", "0.95", "--id", id}, extra...)
	curator(t, dir, append(args, body)...)
}

func killCases(root string) []killCase {
	var add, mcur, ccur, res, sy, other string
	store := func(dir *string, name string) func(t *testing.T) string {
		return func(t *testing.T) string {
			*dir = filepath.Join(root, name)
			killStore(t, *dir)
			return *dir
		}
	}
	hour := func(i int) string {
		return time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour).Format(time.RFC3339)
	}
	commit := func(t *testing.T, dir string) { userCommit(t, dir) }
	return []killCase{{
		name:  "memory add",
		setup: store(&add, "add"),
		locks: 3,
		poll:  true,
		prepare: func(t *testing.T, i int) ([]string, []string) {
			return []string{"memory", "add", "--type", "fact", "--brief", "killed", "--id", fmt.Sprintf("f-kill-%d", i), "body"},
				[]string{"memory", "add", "--type", "fact", "--brief", "next", "--id", fmt.Sprintf("f-next-%d", i), "body"}
		},
		after: commit,
	}, {
		name:  "memory curate",
		setup: store(&mcur, "mcurate"),
		locks: 3,
		poll:  true,
		prepare: func(t *testing.T, i int) ([]string, []string) {
			addMemory(t, mcur, fmt.Sprintf("f-cur-%d", i), "body", "--ingestion-time", hour(i))
			window := []string{"memory", "curate", "--from", hour(i), "--to", hour(i + 1)}
			return window, window
		},
		after: commit,
	}, {
		name:  "context curate",
		setup: store(&ccur, "ccurate"),
		locks: 3,
		poll:  true,
		prepare: func(t *testing.T, i int) ([]string, []string) {
			f := filepath.Join(root, fmt.Sprintf("refl-%d.md", i))
			write(t, f, []byte(fmt.Sprintf("---\nid: refl-kill-%d\nagent: agent\ntask: kill\ncreated_at: 2026-11-20T10:00:00Z\nlessons:\n  - content: Remember lesson%dzq when module%dqq fails.\n    category: strategy\n    confidence: 0.9\n---\nA reflection.\n", i, i, i)))
			curator(t, ccur, "context", "reflect", f)
			return []string{"context", "curate"}, []string{"context", "curate"}
		},
		after: commit,
	}, {
		name:  "resolve",
		setup: store(&res, "resolve"),
		locks: 1,
		prepare: func(t *testing.T, i int) ([]string, []string) {
			id := fmt.Sprintf("f-same-%d", i)
			side := fmt.Sprintf("side-%d", i)
			mustGit(t, res, "checkout", "-q", "-b", side)
			addMemory(t, res, id, "body on the side")
			mustGit(t, res, "checkout", "-q", "main")
			addMemory(t, res, id, "body on main")
			if out, err := gitOut(res, "merge", "-q", "--no-edit", side); err == nil {
				t.Fatalf("git merge did not stop:\n%s", out)
			}
			return []string{"resolve"}, []string{"resolve"}
		},
		after: func(t *testing.T, dir string) { mustGit(t, dir, "commit", "-q", "--no-edit") },
	}, {
		name: "sync",
		setup: func(t *testing.T) string {
			store(&sy, "sync")(t)
			remote := filepath.Join(root, "remote.git")
			mustGit(t, root, "init", "-q", "--bare", "-b", "main", remote)
			mustGit(t, sy, "remote", "add", "origin", remote)
			mustGit(t, sy, "push", "-q", "origin", "main")
			other = filepath.Join(root, "other")
			mustGit(t, root, "clone", "-q", remote, other)
			return sy
		},
		locks: 3,
		poll:  true,
		prepare: func(t *testing.T, i int) ([]string, []string) {
			// Another clone's change to merge: a file of its own, pushed.
			mustGit(t, other, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
			userCommit(t, other)
			mustGit(t, other, "push", "-q", "origin", "main")
			addMemory(t, sy, fmt.Sprintf("f-here-%d", i), "from here")
			return []string{"sync", "--quiet"}, []string{"sync", "--quiet"}
		},
		after: commit,
	}}
}
