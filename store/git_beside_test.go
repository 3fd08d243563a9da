package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// These tests run curator's commits while real git commands run in loops
// beside them, as people and agents do in the repositories curator lives
// in. Whatever the interleaving: no curation is reverted, stranded or
// absorbed into a user's commit, no user change is unstaged, state.json
// never gets conflict markers, and every memory is in exactly one folder.

// besideRepo is a store with committed user files around it.
func besideRepo(t *testing.T, userFiles int) (*Store, string) {
	t.Helper()
	s, dir := committedStore(t)
	for i := 0; i < userFiles; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("u%d.txt", i)), []byte("v0\n"), 0o644)
	}
	gitCmd(t, dir, "add", ".")
	gitCmd(t, dir, "commit", "-qm", "user files")
	return s, dir
}

// curationRuns makes n runs, each adding two inbox memories, moving one
// earlier memory to confirmed/ and rewriting state.json; it returns the
// final folder of every memory.
func curationRuns(t *testing.T, s *Store, n int, stop *atomic.Bool) map[string]string {
	t.Helper()
	where := map[string]string{}
	var inbox []string
	for i := 0; i < n; i++ {
		l, err := s.takeLock(30 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		cs := &Changeset{}
		for k := 0; k < 2; k++ {
			id := fmt.Sprintf("m%03d-%d", i, k)
			cs.Write("memory/inbox/"+id+".md", []byte("---\nid: "+id+"\n---\nbody\n"))
			where[id] = "inbox"
			inbox = append(inbox, id)
		}
		if i > 0 {
			id := inbox[0]
			inbox = inbox[1:]
			cs.Move("memory/inbox/"+id+".md", "memory/confirmed/fact/"+id+".md", []byte("---\nid: "+id+"\nstatus: confirmed\n---\nbody\n"))
			where[id] = "confirmed/fact"
		}
		cs.Write("memory/state.json", []byte(fmt.Sprintf("{\"watermark\": \"run %d\"}\n", i)))
		var saveErr error
		for try := 0; try < 50; try++ {
			if _, saveErr = s.save(cs, info(fmt.Sprintf("run-%03d", i)), SaveOptions{}); saveErr == nil {
				break
			}
			if !errors.Is(saveErr, ErrGitLocked) {
				break
			}
			// git held a lock beyond the wait: the run made no change, and
			// is tried again (as the next hourly run would).
			l.Unlock()
			time.Sleep(20 * time.Millisecond)
			if l, err = s.takeLock(30 * time.Second); err != nil {
				t.Fatal(err)
			}
		}
		l.Unlock()
		if saveErr != nil {
			stop.Store(true)
			t.Fatalf("run %d: %v", i, saveErr)
		}
	}
	stop.Store(true)
	return where
}

// checkCurations checks the repository after the loops and runs ended.
// With worktreeClean, the store on disk and in the index must also equal
// HEAD's.
func checkCurations(t *testing.T, s *Store, dir string, runs int, where map[string]string, worktreeClean, allowReverts bool) {
	t.Helper()
	// Every run is on the branch HEAD is on (none stranded or reverted),
	// unless git itself moved the branch off it: `git reset --hard`, which
	// `git stash` runs, reads HEAD when it starts and sets the branch back
	// to that commit when it ends, so a commit made in between (by curator
	// or by git commit) leaves the branch (git's own race; with git alone,
	// a commit loop beside a stash loop loses commits the same way). Such
	// a run is logged, and the branch's reflog must show git dropping it.
	log := gitCmd(t, dir, "log", "--format=%B")
	droppedByGit := runsDroppedByReset(t, dir)
	leftByCheckout := runsLeftByCheckout(t, dir)
	var stranded []string // the commits of runs left by a checkout
	for i := 0; i < runs; i++ {
		run := fmt.Sprintf("run-%03d", i)
		if !strings.Contains(log, "Curator-Run: "+run+"\n") {
			if droppedByGit[run] {
				t.Logf("run %d was dropped from the branch by git's reset (reflog: reset: moving to HEAD)", i)
				continue
			}
			if c, ok := leftByCheckout[run]; ok {
				t.Logf("run %d was left on the branch `git checkout -b` switched from to a branch made from its parent", i)
				stranded = append(stranded, c)
				continue
			}
			t.Errorf("run %d is not in HEAD's history", i)
		}
	}
	// No commit of the user's holds a change curator made (absorbed).
	// With allowReverts, a user commit may undo a curation: git commit
	// reads the index before it locks it, and writes back what it read
	// even when its commit then fails, so an index update made in between
	// is lost and the next commit reverts it (git's own race; see
	// TestRunsBesideGitCommitLoop).
	reverts := 0
	out := gitCmd(t, dir, "log", "--format=@@%h %s", "--name-status", "--no-renames")
	for _, c := range strings.Split(out, "@@")[1:] {
		lines := strings.Split(strings.TrimSpace(c), "\n")
		hash, subject, _ := strings.Cut(lines[0], " ")
		if strings.HasPrefix(subject, "test ") {
			continue
		}
		for _, l := range lines[1:] {
			status, f, _ := strings.Cut(l, "\t")
			if !strings.HasPrefix(f, ".curator/") {
				continue
			}
			if allowReverts && isRevert(t, dir, hash, status, f) {
				reverts++
				continue
			}
			t.Errorf("user commit %s %q holds %s %s", hash, subject, status, f)
		}
	}
	if reverts > 0 {
		t.Logf("%d store files reverted by user commits that wrote a stale index", reverts)
	}
	if len(stranded) > 0 {
		// The switch carried those runs' changes as staged ones: nothing
		// of them is lost. Every staged change of the store is one of
		// theirs (later runs committed the paths they changed again), and
		// the work tree is the index.
		theirs := map[string]bool{}
		for _, c := range stranded {
			for _, l := range strings.Split(strings.TrimSpace(gitCmd(t, dir, "diff", "--no-renames", "--name-status", c+"^", c, "--", ".curator")), "\n") {
				theirs[l] = true
			}
		}
		for _, l := range strings.Split(strings.TrimSpace(gitCmd(t, dir, "diff", "--cached", "--no-renames", "--name-status", "HEAD", "--", ".curator")), "\n") {
			if l != "" && !theirs[l] {
				t.Errorf("staged change %q is not one of the runs left by the checkout", l)
			}
		}
		if st := gitCmd(t, dir, "diff", "--name-status", "--", ".curator"); st != "" {
			t.Errorf("store differs from the index after the runs:\n%s", st)
		}
		gitCmd(t, dir, "fsck", "--strict")
		return
	}
	// The store in HEAD, in the index and on disk are the same.
	if st := gitCmd(t, dir, "status", "--porcelain", "--", ".curator"); worktreeClean && st != "" {
		t.Errorf("store differs from HEAD after the runs:\n%s", st)
	}
	if reverts > 0 || len(droppedByGit) > 0 {
		return // the folders and the work tree follow the reverting commits
	}
	tracked := gitCmd(t, dir, "ls-tree", "-r", "--name-only", "HEAD", ".curator/memory")
	found := map[string][]string{}
	for _, f := range strings.Fields(tracked) {
		rel := strings.TrimPrefix(f, ".curator/memory/")
		if strings.HasSuffix(rel, ".md") {
			id := strings.TrimSuffix(filepath.Base(rel), ".md")
			found[id] = append(found[id], filepath.Dir(rel))
		}
	}
	for id, want := range where {
		if got := found[id]; len(got) != 1 || got[0] != want {
			t.Errorf("memory %s is in %v, want [%s]", id, got, want)
		}
	}
	state, _ := os.ReadFile(s.Path("memory/state.json"))
	head := gitCmd(t, dir, "show", "HEAD:.curator/memory/state.json")
	if strings.Contains(string(state), "<<<<<<<") || !strings.Contains(head, fmt.Sprintf("run %d", runs-1)) {
		t.Errorf("state.json: %s; in HEAD: %s", state, head)
	}
	gitCmd(t, dir, "fsck", "--strict")
}

// runsDroppedByReset are the runs whose commit the branch's reflog shows
// git moving the branch off with `reset: moving to HEAD` (the reset of a
// `git stash` that read HEAD before the run committed).
func runsDroppedByReset(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	branch := strings.TrimSpace(gitCmd(t, dir, "symbolic-ref", "HEAD"))
	data, err := os.ReadFile(filepath.Join(dir, ".git", "logs", filepath.FromSlash(branch)))
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		head, msg, ok := strings.Cut(line, "\t")
		f := strings.Fields(head)
		if !ok || msg != "reset: moving to HEAD" || len(f) < 2 || f[0] == f[1] {
			continue
		}
		body := gitCmd(t, dir, "log", "-1", "--format=%B", f[0])
		if _, run, found := strings.Cut(body, "Curator-Run: "); found {
			out[strings.TrimSpace(strings.SplitN(run, "\n", 2)[0])] = true
		}
	}
	return out
}

// runsLeftByCheckout are the runs (with their commits) that a `git
// checkout -b` left on the branch it switched from, as HEAD's reflog
// shows it: the run's commit C logged, then "checkout: moving from …"
// from C to C's parent — the checkout read HEAD before the run committed,
// made its branch there, and switched after, carrying the run's changes
// as staged ones (git's own race: a `git commit` loop beside a `checkout
// -b` loop leaves commits the same way). A branch moved while HEAD named
// another would log the checkout first, from the parent to itself.
func runsLeftByCheckout(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "logs", "HEAD"))
	if err != nil {
		return out
	}
	committed := map[string]bool{} // commits HEAD's reflog has logged so far
	for _, line := range strings.Split(string(data), "\n") {
		head, msg, ok := strings.Cut(line, "\t")
		f := strings.Fields(head)
		if !ok || len(f) < 2 {
			continue
		}
		if !strings.HasPrefix(msg, "checkout: moving from ") {
			committed[f[1]] = true
			continue
		}
		c, p := f[0], f[1]
		if c == p || !committed[c] || strings.TrimSpace(gitCmd(t, dir, "log", "-1", "--format=%P", c)) != p {
			continue
		}
		body := gitCmd(t, dir, "log", "-1", "--format=%B", c)
		if _, run, found := strings.Cut(body, "Curator-Run: "); found {
			out[strings.TrimSpace(strings.SplitN(run, "\n", 2)[0])] = c
		}
	}
	return out
}

// addLoop writes a new line into one of four user files and stages it,
// until stop; staged records the last version staged of each file.
func addLoop(dir string, stop *atomic.Bool, staged map[string]int, mu *sync.Mutex) {
	for n := 1; !stop.Load(); n++ {
		f := fmt.Sprintf("u%d.txt", n%4)
		os.WriteFile(filepath.Join(dir, f), []byte(fmt.Sprintf("v%d\n", n)), 0o644)
		for gitTry(dir, "add", f) != nil {
			time.Sleep(time.Millisecond)
		}
		mu.Lock()
		staged[f] = n
		mu.Unlock()
	}
}

func TestRunsBesideGitAddLoop(t *testing.T) {
	s, dir := besideRepo(t, 4)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var mu sync.Mutex
	staged := map[string]int{}
	wg.Add(1)
	go func() { defer wg.Done(); addLoop(dir, &stop, staged, &mu) }()
	const runs = 40
	where := curationRuns(t, s, runs, &stop)
	wg.Wait()
	checkCurations(t, s, dir, runs, where, true, false)
	// No user change was unstaged: the index holds what the loop added.
	if d := gitCmd(t, dir, "diff", "--name-only"); d != "" {
		t.Errorf("unstaged after the loop:\n%s", d)
	}
	for f, n := range staged {
		if got := gitCmd(t, dir, "show", ":"+f); got != fmt.Sprintf("v%d\n", n) {
			t.Errorf("%s staged as %q, want v%d", f, got, n)
		}
	}
}

// git commit reads the index before it takes index.lock and writes back
// what it read (even when its own commit then fails), so any index update
// made in between is lost: with git alone, a `git add` loop beside a
// `git commit` loop loses some adds. Beside curator the lost update is a
// run's index entries, and the next user commit reverts that run. Curator
// cannot close git's window; it never lets a user commit carry one of its
// changes (absorb), and every run stays in history. Reverts are counted.
func TestRunsBesideGitCommitLoop(t *testing.T) {
	s, dir := besideRepo(t, 4)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var mu sync.Mutex
	var beside atomic.Int64
	ready := make(chan struct{})
	wg.Add(2)
	go func() { defer wg.Done(); addLoop(dir, &stop, map[string]int{}, &mu) }()
	go func() {
		defer wg.Done()
		first := true
		for !stop.Load() {
			if gitTry(dir, "commit", "-qm", "user commit") == nil {
				if first {
					close(ready)
					first = false
				} else {
					beside.Add(1)
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
		if first {
			close(ready)
		}
	}()
	waitReady(t, ready, &stop)
	const runs = 40
	where := curationRuns(t, s, runs, &stop)
	wg.Wait()
	checkCurations(t, s, dir, runs, where, false, true)
	if beside.Load() == 0 {
		t.Error("no user commit was made while the runs committed: the test tried nothing")
	}
}

// waitReady waits until a loop beside the runs has done its first step.
func waitReady(t *testing.T, ready <-chan struct{}, stop *atomic.Bool) {
	t.Helper()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		stop.Store(true)
		t.Fatal("the git loop beside the runs never got going")
	}
}

// git stash reads the index without its lock and writes it back under the
// lock, so any index update made in between (by curator, or by a `git add`
// in another terminal) is lost and a later pop may fail or undo it in the
// work tree: git's own race, shown with git alone in the README; and its
// `git reset --hard` may set the branch back to the HEAD it read before a
// run committed (the reflog shows it). What curator promises beside a
// stash loop holds all the same: every run is in HEAD's history unless
// git's reset dropped it, never in a user commit, state.json gets no
// conflict markers, and the user's stashed work is never lost.
func TestRunsBesideGitStashLoop(t *testing.T) {
	s, dir := besideRepo(t, 2)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var last atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 1; !stop.Load(); n++ {
			os.WriteFile(filepath.Join(dir, "u0.txt"), []byte(fmt.Sprintf("wip %d\n", n)), 0o644)
			last.Store(int64(n))
			if gitTry(dir, "stash", "push", "-q") != nil {
				continue
			}
			for try := 0; gitTry(dir, "stash", "pop", "-q") != nil && try < 20; try++ {
				time.Sleep(time.Millisecond)
			}
			if gitTry(dir, "diff", "--quiet", "--", "u0.txt") == nil {
				return // a pop failed: the work is in the stash, and stays there
			}
		}
	}()
	const runs = 40
	where := curationRuns(t, s, runs, &stop)
	wg.Wait()
	checkCurations(t, s, dir, runs, where, false, false)
	want := fmt.Sprintf("wip %d\n", last.Load())
	if b, _ := os.ReadFile(filepath.Join(dir, "u0.txt")); string(b) != want {
		if !strings.Contains(gitCmd(t, dir, "stash", "show", "-p"), "+"+want) {
			t.Errorf("the user's last change %q is neither in u0.txt (%q) nor in the stash", want, b)
		}
	}
}

func TestRunsBesideGitCheckoutLoop(t *testing.T) {
	s, dir := besideRepo(t, 1)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var beside atomic.Int64
	ready := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		first := true
		for n := 1; !stop.Load(); n++ {
			if gitTry(dir, "checkout", "-q", "-b", fmt.Sprintf("topic-%d", n)) == nil {
				if first {
					close(ready)
					first = false
				} else {
					beside.Add(1)
				}
			}
			time.Sleep(time.Millisecond)
		}
		if first {
			close(ready)
		}
	}()
	waitReady(t, ready, &stop)
	const runs = 40
	where := curationRuns(t, s, runs, &stop)
	wg.Wait()
	checkCurations(t, s, dir, runs, where, true, false)
	if beside.Load() < 2 {
		t.Errorf("%d branches checked out while the runs committed: the test tried too little", beside.Load())
	}
}

// isRevert reports whether a user commit's change to a store file puts
// back an earlier state of it (a file or content its parent's history had
// before), rather than carrying a change curator made.
func isRevert(t *testing.T, dir, commit, status, f string) bool {
	t.Helper()
	switch status {
	case "D":
		return true // a file curator had made, removed again
	case "A":
		return gitCmd(t, dir, "log", "--format=%h", "-1", commit+"^", "--", f) != ""
	}
	blob := strings.TrimSpace(gitCmd(t, dir, "rev-parse", commit+":"+f))
	for _, h := range strings.Fields(gitCmd(t, dir, "log", "--format=%h", commit+"^", "--", f)) {
		if strings.TrimSpace(gitCmd(t, dir, "rev-parse", h+"^:"+f+"")) == blob {
			return true
		}
	}
	return false
}

// A file staged in the same clock tick as the index was written is
// "racily clean": git re-reads it while the index is that old. When curator
// writes a newer index it smudges such entries, as git does, so a change
// of the file that keeps its size and time is still seen.
func TestRacilyCleanEntriesAreSmudged(t *testing.T) {
	s, dir := besideRepo(t, 1)
	gitCmd(t, dir, "config", "core.trustctime", "false")
	u := filepath.Join(dir, "u.txt")
	m := time.Now().Add(-time.Minute).Truncate(time.Second)
	os.WriteFile(u, []byte("aaaa\n"), 0o644)
	os.Chtimes(u, m, m)
	gitCmd(t, dir, "add", "u.txt")
	os.Chtimes(filepath.Join(dir, ".git", "index"), m, m) // staged in the index's own tick
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("---\nid: a\n---\n"))
	if _, err := s.save(cs, info("r"), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(u, []byte("bbbb\n"), 0o644) // same size, and the same time:
	os.Chtimes(u, m, m)
	if st := gitCmd(t, dir, "status", "--porcelain", "--", "u.txt"); st != "AM u.txt\n" {
		t.Errorf("git status of a file changed after it was staged: %q, want \"AM u.txt\"", st)
	}
}

// Git built without nanosecond file times compares whole seconds: a file
// staged earlier in the second the index was written is racily clean to it
// too, and must be smudged when curator rewrites the index, or a later
// change of the file within that second (same size) is never seen.
func TestRacilyCleanToTheSecond(t *testing.T) {
	s, dir := besideRepo(t, 1)
	gitCmd(t, dir, "config", "core.trustctime", "false")
	u := filepath.Join(dir, "u.txt")
	sec := time.Now().Add(-time.Minute).Truncate(time.Second)
	os.WriteFile(u, []byte("aaaa\n"), 0o644)
	os.Chtimes(u, sec.Add(100*time.Millisecond), sec.Add(100*time.Millisecond))
	gitCmd(t, dir, "add", "u.txt")
	index := filepath.Join(dir, ".git", "index")
	os.Chtimes(index, sec.Add(500*time.Millisecond), sec.Add(500*time.Millisecond)) // later in the same second
	cs := &Changeset{}
	cs.Write("memory/inbox/a.md", []byte("---\nid: a\n---\n"))
	if _, err := s.save(cs, info("r"), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(u, []byte("bbbb\n"), 0o644) // same size, same second
	os.Chtimes(u, sec.Add(200*time.Millisecond), sec.Add(200*time.Millisecond))
	if st := gitCmd(t, dir, "status", "--porcelain", "--", "u.txt"); st != "AM u.txt\n" {
		t.Errorf("git status of a file changed in the second it was staged: %q, want \"AM u.txt\"", st)
	}
	gitCmd(t, dir, "add", "u.txt")
	if got := gitCmd(t, dir, "show", ":u.txt"); got != "bbbb\n" {
		t.Errorf("git add staged %q, want the new content", got)
	}
}
