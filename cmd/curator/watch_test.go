package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// These tests run `curator watch` as a real process (this test binary, as
// testscript installs it in PATH) beside real file changes, and read its
// JSON events.

// watchEvent is one line of `curator watch --json`.
type watchEvent struct {
	Event           string          `json:"event"`
	Project         string          `json:"project"`
	Path            string          `json:"path"`
	Change          string          `json:"change"`
	ValidatedSHA256 string          `json:"validated_sha256"`
	SHA256          string          `json:"sha256"`
	Commit          string          `json:"commit"`
	Mode            string          `json:"mode"`
	URL             string          `json:"url"`
	Summary         string          `json:"summary"`
	Message         string          `json:"message"`
	Report          json.RawMessage `json:"report"`
}

// watchProc is a running `curator watch`.
type watchProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	events chan watchEvent
	mu     sync.Mutex
	stderr strings.Builder
	exited chan error
}

// gitEnv names the committer of the runs the tests make.
func gitEnv(t *testing.T) {
	for _, kv := range testIdentity {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// testIdentity is the environment of the commands the tests run: git's
// identity, without colour. A test that runs beside others (t.Parallel)
// cannot set it with gitEnv; its commands are given it (curator does).
var testIdentity = []string{
	"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com",
	"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com", "NO_COLOR=1",
}

// curator runs one curator command in dir and returns its stdout.
func curator(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("curator", args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), testIdentity...)
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("curator %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
	}
	return string(out)
}

// startWatch starts `curator watch --json args...` in dir and waits until
// it watches.
func startWatch(t *testing.T, dir string, args ...string) (*watchProc, watchEvent) {
	t.Helper()
	p := &watchProc{t: t, events: make(chan watchEvent, 1024), exited: make(chan error, 1)}
	p.cmd = exec.Command("curator", append([]string{"watch", "--json"}, args...)...)
	p.cmd.Dir = dir
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = writerFunc(func(b []byte) (int, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.stderr.Write(b)
	})
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var e watchEvent
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				e = watchEvent{Event: "bad-json", Message: sc.Text()}
			}
			p.events <- e
		}
		close(p.events)
		p.exited <- p.cmd.Wait()
	}()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
		}
	})
	return p, p.next("watching", 30*time.Second)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// next waits for the next event of a kind, failing on any error event.
func (p *watchProc) next(kind string, within time.Duration) watchEvent {
	p.t.Helper()
	deadline := time.After(within)
	for {
		select {
		case e, ok := <-p.events:
			if !ok {
				err := <-p.exited
				p.t.Fatalf("watch ended (%v) while waiting for %q; stderr:\n%s", err, kind, p.errText())
			}
			if e.Event == "error" || e.Event == "bad-json" {
				p.t.Fatalf("watch: %s event while waiting for %q: %s", e.Event, kind, e.Message)
			}
			if e.Event == kind {
				return e
			}
		case <-deadline:
			p.t.Fatalf("no %q event within %v; stderr:\n%s", kind, within, p.errText())
		}
	}
}

// quiet checks that no event other than notices comes within d.
func (p *watchProc) quiet(d time.Duration) {
	p.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case e := <-p.events:
			if e.Event != "notice" {
				p.t.Fatalf("unexpected %s event: %+v; stderr:\n%s", e.Event, e, p.errText())
			}
		case <-deadline:
			return
		}
	}
}

// stop sends SIGTERM and checks watch ends cleanly: a "stopped" event,
// exit status 0.
func (p *watchProc) stop() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
	p.next("stopped", 20*time.Second)
	for range p.events {
	}
	select {
	case err := <-p.exited:
		if err != nil {
			p.t.Fatalf("watch exited with %v; stderr:\n%s", err, p.errText())
		}
	case <-time.After(20 * time.Second):
		p.t.Fatal("watch did not exit after SIGTERM")
	}
}

func (p *watchProc) errText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// commits counts the commits of the repository at dir.
func commits(t *testing.T, dir string) int {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "rev-list", "--count", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return n
}

// scriptFile is a file of one of the end-to-end scripts' archives.
func scriptFile(t *testing.T, script, name string) []byte {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata/script", script))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("%s has no file %s", script, name)
	return nil
}

// pipelineStore is a store with the shop project past its spec: shop/spec.md
// validated, the state in the store's pipelines folder.
func pipelineStore(t *testing.T) (dir string, spec []byte) {
	t.Helper()
	gitEnv(t)
	dir = t.TempDir()
	curator(t, dir, "init")
	spec = scriptFile(t, "pipeline_sdd.txtar", "shop/spec.md")
	os.MkdirAll(filepath.Join(dir, "shop/specs"), 0o755)
	write(t, filepath.Join(dir, "shop/spec.md"), spec)
	curator(t, dir, "pipeline", "transition", "--project", "shop", "--pipeline", "sdd", "--from", "spec-writer", "--to", "implementer", "--project-path", "shop")
	return dir, spec
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// stateDrift reads the drift recorded in the shop project's state.
func stateDrift(t *testing.T, dir string) []watchEvent {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".curator/pipelines/pipeline-state-shop.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Drift []watchEvent `json:"drift"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st.Drift
}

// driftScenarios runs the changes a person or an agent makes to a
// validated artifact beside a running watch, and checks each one's
// drift, commit and state.
func driftScenarios(t *testing.T, mode string, args ...string) {
	dir, spec := pipelineStore(t)
	w, started := startWatch(t, dir, append([]string{"--pipelines"}, args...)...)
	if started.Mode != mode {
		t.Fatalf("watching with %q, want %q", started.Mode, mode)
	}
	specPath := filepath.Join(dir, "shop/spec.md")
	base := commits(t, dir)
	wait := 15 * time.Second

	// Touched without a change of content: no drift, no commit.
	later := time.Now().Add(time.Minute)
	os.Chtimes(specPath, later, later)
	w.quiet(time.Second)
	if n := commits(t, dir); n != base || len(stateDrift(t, dir)) != 0 {
		t.Fatalf("a touch made %d commit(s) / drift %+v", n-base, stateDrift(t, dir))
	}

	// Modified: drift with both hashes, in the state, one commit.
	changed := append(append([]byte{}, spec...), "\nOne more requirement.\n"...)
	write(t, specPath, changed)
	d := w.next("drift", wait)
	if d.Path != "spec.md" || d.Change != "modified" || len(d.SHA256) != 64 || len(d.ValidatedSHA256) != 64 || d.Commit == "" {
		t.Fatalf("drift event: %+v", d)
	}
	if sd := stateDrift(t, dir); len(sd) != 1 || sd[0].SHA256 != d.SHA256 {
		t.Fatalf("state drift: %+v", sd)
	}
	if n := commits(t, dir); n != base+1 {
		t.Fatalf("%d commits for one drift", n-base)
	}

	// An editor's save: write a temporary file, rename it over.
	tmp := filepath.Join(dir, "shop/.spec.md.swp")
	write(t, tmp, append(changed, "And another.\n"...))
	if err := os.Rename(tmp, specPath); err != nil {
		t.Fatal(err)
	}
	d2 := w.next("drift", wait)
	if d2.SHA256 == d.SHA256 || d2.ValidatedSHA256 != d.ValidatedSHA256 {
		t.Fatalf("rename over: %+v after %+v", d2, d)
	}

	// Back to the validated content: the drift is cleared.
	write(t, specPath, spec)
	w.next("drift-cleared", wait)
	if sd := stateDrift(t, dir); len(sd) != 0 {
		t.Fatalf("drift left after a restore: %+v", sd)
	}

	// Deleted, then its folder made again and the file created inside.
	os.Remove(specPath)
	if d := w.next("drift", wait); d.Change != "deleted" {
		t.Fatalf("delete: %+v", d)
	}
	os.RemoveAll(filepath.Join(dir, "shop"))
	os.MkdirAll(filepath.Join(dir, "shop"), 0o755)
	write(t, specPath, spec)
	w.next("drift-cleared", wait)

	// A burst of 1,000 files beside the artifact is no drift and no commit.
	before := commits(t, dir)
	burst := filepath.Join(dir, "shop/notes")
	os.MkdirAll(burst, 0o755)
	for i := range 1000 {
		write(t, filepath.Join(burst, "n"+strconv.Itoa(i)+".md"), []byte("note "+strconv.Itoa(i)))
	}
	w.quiet(2 * time.Second)
	if n := commits(t, dir); n != before {
		t.Fatalf("the burst made %d commit(s)", n-before)
	}
	// ...and watch still sees the artifact afterwards.
	write(t, specPath, changed)
	w.next("drift", wait)

	// Another run validates the changed spec again: watch reads the new
	// state (no drift left) and follows the new content from then on.
	curator(t, dir, "pipeline", "transition", "--project", "shop", "--pipeline", "sdd", "--from", "spec-writer", "--to", "implementer", "--step", "2")
	w.next("state", wait)
	if sd := stateDrift(t, dir); len(sd) != 0 {
		t.Fatalf("drift left after the spec was validated again: %+v", sd)
	}
	write(t, specPath, spec)
	if d := w.next("drift", wait); d.ValidatedSHA256 != sha(changed) || d.SHA256 != sha(spec) {
		t.Fatalf("after revalidation: %+v", d)
	}
	w.stop()
	curator(t, dir, "memory", "curate", "--lock-timeout", "0s") // the lock is free
}

// TestWatchDrift: file events (inotify on Linux).
func TestWatchDrift(t *testing.T) {
	driftScenarios(t, "fsnotify")
}

// TestWatchDriftPolling: the same with --poll.
func TestWatchDriftPolling(t *testing.T) {
	driftScenarios(t, "poll", "--poll", "100ms")
}

// dropEntry writes an inbox entry straight into the inbox, as an agent
// does; a strong one is promoted by channel A, a weak one discarded.
func dropEntry(t *testing.T, dir, id string, strong bool) {
	t.Helper()
	factors := "  proximity: 0.1\n  surprisal: 0.1\n  entity_priority: 0.1\n  unambiguity: 0.1\n"
	if strong {
		factors = "  proximity: 0.9\n  surprisal: 0.8\n  entity_priority: 0.7\n  unambiguity: 0.9\n"
	}
	entry := "---\nid: " + id + "\ntype: fact\nstatus: inbox\nmaturity: case\nbrief: entry " + id + "\nauthor: agent-a\n" +
		"tags: [go, build]\ncontent_confidence: 4\nimportance_factors:\n" + factors +
		"ingestion_time: " + time.Now().UTC().Format(time.RFC3339Nano) + "\n---\nbody of " + id + "\n"
	write(t, filepath.Join(dir, ".curator/memory/inbox", id+".md"), []byte(entry))
}

// addMemories drops a strong fact and a weak one into the inbox.
func addMemories(t *testing.T, dir, suffix string) {
	t.Helper()
	dropEntry(t, dir, "f-strong"+suffix, true)
	dropEntry(t, dir, "f-noise"+suffix, false)
}

// memoryReport is what a memory-curate event reports.
func memoryReport(t *testing.T, e watchEvent) (promoted, discarded []string) {
	t.Helper()
	var r struct {
		Promoted, Discarded []struct {
			ID string `json:"id"`
		}
	}
	if err := json.Unmarshal(e.Report, &r); err != nil {
		t.Fatalf("memory-curate report: %v: %s", err, e.Report)
	}
	for _, a := range r.Promoted {
		promoted = append(promoted, a.ID)
	}
	for _, a := range r.Discarded {
		discarded = append(discarded, a.ID)
	}
	return promoted, discarded
}

// TestWatchMemory: new inbox entries start one memory pass after the
// quiet time; a store locked by another run puts it off, never runs it
// twice.
func TestWatchMemory(t *testing.T) {
	gitEnv(t)
	dir := t.TempDir()
	curator(t, dir, "init")
	w, _ := startWatch(t, dir, "--memory", "--curate-after", "300ms", "--lock-timeout", "100ms")
	addMemories(t, dir, "1")
	e := w.next("memory-curate", 30*time.Second)
	promoted, discarded := memoryReport(t, e)
	if strings.Join(promoted, ",") != "f-strong1" || strings.Join(discarded, ",") != "f-noise1" || e.Commit == "" {
		t.Fatalf("memory-curate: promoted %v, discarded %v, commit %q", promoted, discarded, e.Commit)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/memory/confirmed/fact/f-strong1.md")); err != nil {
		t.Fatal(err)
	}

	// Another run holds the store: the pass waits for it.
	hold := exec.Command("flock", filepath.Join(dir, ".curator/.lock"), "sleep", "3")
	if err := hold.Start(); err != nil {
		t.Skipf("flock(1): %v", err)
	}
	time.Sleep(200 * time.Millisecond)
	dropEntry(t, dir, "f-strong2", true)
	w.next("busy", 30*time.Second)
	hold.Wait()
	e = w.next("memory-curate", 30*time.Second)
	if promoted, _ := memoryReport(t, e); strings.Join(promoted, ",") != "f-strong2" || e.Commit == "" {
		t.Fatalf("after the lock was free: %+v", e)
	}
	w.stop()
}

// TestTwoWatchersCurateOnce: two watchers of one store see the same new
// entries; one curates them, the other finds nothing left to curate.
func TestTwoWatchersCurateOnce(t *testing.T) {
	gitEnv(t)
	dir := t.TempDir()
	curator(t, dir, "init")
	a, _ := startWatch(t, dir, "--memory", "--curate-after", "300ms")
	b, _ := startWatch(t, dir, "--memory", "--curate-after", "300ms")
	addMemories(t, dir, "")
	ea, eb := a.next("memory-curate", 30*time.Second), b.next("memory-curate", 30*time.Second)
	if (ea.Commit == "") == (eb.Commit == "") {
		t.Fatalf("want exactly one curation commit: %q and %q (%s / %s)", ea.Commit, eb.Commit, ea.Summary, eb.Summary)
	}
	out, err := exec.Command("git", "-C", dir, "log", "--format=%s").Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "memory curate"); n != 1 {
		t.Fatalf("%d memory curate commits:\n%s", n, out)
	}
	a.stop()
	b.stop()
}

// TestWatchContext: a new pending reflection starts `context curate`
// with --curate-flags after the quiet time.
func TestWatchContext(t *testing.T) {
	gitEnv(t)
	dir := t.TempDir()
	curator(t, dir, "init")
	write(t, filepath.Join(dir, "pagination.md"), scriptFile(t, "context_curate.txtar", "pagination.md"))
	w, _ := startWatch(t, dir, "--context", "--curate-after", "300ms", "--curate-flags", "--min-confidence 0.4")
	curator(t, dir, "context", "reflect", "pagination.md")
	e := w.next("context-curate", 30*time.Second)
	if e.Commit == "" || !strings.Contains(e.Summary, "1 reflection(s) merged") {
		t.Fatalf("context-curate: %+v", e)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/context/reflections/merged/refl-pagination.md")); err != nil {
		t.Fatal(err)
	}
	w.stop()
}
