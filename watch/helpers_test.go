package watch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// patience bounds every wait: the machines that run these tests are busy.
const patience = 10 * time.Second

// modes are the two ways of watching, for the tests run in both.
var modes = []struct {
	name string
	opts Options
}{
	{ModeNotify, Options{}},
	{ModePoll, Options{Poll: 50 * time.Millisecond}},
}

// run is a Watcher running in the background with what it sent so far.
type run struct {
	t       *testing.T
	w       *Watcher
	changed chan struct{}

	mu      sync.Mutex
	batches []Batch
	notices []Notice
}

// start makes a Watcher with opts, adds roots and runs it until the test ends.
func start(t *testing.T, opts Options, roots ...string) *run {
	t.Helper()
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range roots {
		if err := w.Add(root); err != nil {
			t.Fatal(err)
		}
	}
	return runWatcher(t, w)
}

// runWatcher runs w until the test ends, recording its batches and notices.
func runWatcher(t *testing.T, w *Watcher) *run {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	batches, notices := make(chan Batch), make(chan Notice)
	r := &run{t: t, w: w, changed: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx, batches, notices) }()
	go func() {
		for {
			select {
			case b := <-batches:
				r.mu.Lock()
				r.batches = append(r.batches, b)
				r.mu.Unlock()
			case n := <-notices:
				r.mu.Lock()
				r.notices = append(r.notices, n)
				r.mu.Unlock()
			case <-ctx.Done():
				return
			}
			select {
			case r.changed <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(patience):
			t.Errorf("Run did not return %s after its context ended", patience)
		}
	})
	return r
}

// sent returns copies of the batches and notices sent so far.
func (r *run) sent() ([]Batch, []Notice) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.batches), slices.Clone(r.notices)
}

// until waits until cond holds, checking it whenever something is sent and
// at least every 50ms; it fails the test after patience.
func (r *run) until(what string, cond func(batches []Batch, notices []Notice) bool) {
	r.t.Helper()
	deadline := time.NewTimer(patience)
	defer deadline.Stop()
	for {
		b, n := r.sent()
		if cond(b, n) {
			return
		}
		select {
		case <-r.changed:
		case <-time.After(50 * time.Millisecond):
		case <-deadline.C:
			b, n := r.sent()
			r.t.Fatalf("after %s, still waiting for %s\nbatches: %v\nnotices: %v", patience, what, summary(b), n)
		}
	}
}

// reported waits until every path has been reported, in any batch.
func (r *run) reported(paths ...string) {
	r.t.Helper()
	r.until("paths reported", func(batches []Batch, _ []Notice) bool {
		return len(missing(batches, paths)) == 0
	})
}

// missing lists the paths no batch reported.
func missing(batches []Batch, paths []string) []string {
	seen := make(map[string]bool)
	for _, b := range batches {
		for _, p := range b.Paths {
			seen[p] = true
		}
	}
	var out []string
	for _, p := range paths {
		if !seen[p] {
			out = append(out, p)
		}
	}
	return out
}

// summary shortens batches for a failure message.
func summary(batches []Batch) []string {
	var out []string
	for _, b := range batches {
		s := b.At.Format("15:04:05.000")
		if b.Rescan {
			s += " rescan"
		}
		paths := b.Paths
		if len(paths) > 8 {
			paths = append(slices.Clip(paths[:8]), "…")
		}
		out = append(out, s+" "+strings.Join(paths, " "))
	}
	return out
}

// write writes text to the file at path, making its folder.
func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mkdir makes the folder at path and its parents.
func mkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}
