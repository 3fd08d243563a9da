package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// handed is what RunFunc handed to its functions so far.
type handed struct {
	mu      sync.Mutex
	batches []Batch
	notices []Notice
}

func (h *handed) batch(b Batch) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.batches = append(h.batches, b)
}

func (h *handed) notice(n Notice) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notices = append(h.notices, n)
}

// has says whether a batch handed so far holds path.
func (h *handed) has(path string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, b := range h.batches {
		if b.Rescan || slices.Contains(b.Paths, path) {
			return true
		}
	}
	return false
}

// follow runs w with RunFunc until the test ends.
func follow(t *testing.T, w *Watcher) *handed {
	t.Helper()
	h := &handed{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.RunFunc(ctx, h.batch, h.notice) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("RunFunc: %v", err)
			}
		case <-time.After(patience):
			t.Errorf("RunFunc did not return %s after its context ended", patience)
		}
	})
	return h
}

// syncNow is w.Sync bounded by patience.
func syncNow(t *testing.T, w *Watcher) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := w.Sync(ctx); err != nil {
		t.Fatalf("Sync: %v", err)
	}
}

// A change made just before Sync is in what was handed over when Sync
// returns, however long the batch would take to settle: a file written, a
// folder made with a file in it, a file removed.
func TestSyncDeliversEarlierChanges(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			dir := t.TempDir()
			opts := m.opts
			opts.Debounce, opts.MaxDelay = time.Hour, time.Hour
			if opts.Poll > 0 {
				opts.Poll = time.Hour
			}
			w, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Add(dir); err != nil {
				t.Fatal(err)
			}
			h := follow(t, w)
			for i := range 30 {
				var p string
				switch i % 3 {
				case 0:
					p = filepath.Join(dir, fmt.Sprintf("f%02d.md", i))
					write(t, p, "x")
				case 1:
					p = filepath.Join(dir, fmt.Sprintf("d%02d", i), "g.md")
					write(t, p, "y")
				case 2:
					p = filepath.Join(dir, fmt.Sprintf("f%02d.md", i-2))
					if err := os.Remove(p); err != nil {
						t.Fatal(err)
					}
				}
				syncNow(t, w)
				if !h.has(p) {
					t.Fatalf("change %d: %s not handed over when Sync returned", i, p)
				}
			}
		})
	}
}

// With NoDebounce, RunFunc hands each change over as it is read, without
// waiting for Sync.
func TestNoDebounce(t *testing.T) {
	dir := t.TempDir()
	w, err := New(Options{Debounce: NoDebounce, MaxDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	h := follow(t, w)
	p := filepath.Join(dir, "a.md")
	write(t, p, "x")
	deadline := time.Now().Add(patience)
	for !h.has(p) {
		if time.Now().After(deadline) {
			t.Fatalf("%s not handed over after %s", p, patience)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The marker file Sync renames lives in a folder of the Watcher's own in
// the system's temporary folder; removed (by a cleaner of that folder),
// it is made again, and it is removed when the Watcher ends.
func TestSyncFolderRemoved(t *testing.T) {
	dir := t.TempDir()
	w, err := New(Options{Debounce: time.Hour, MaxDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	h := follow(t, w)
	syncNow(t, w)
	first := w.SyncFolder()
	if w.Mode() == ModeNotify && first == "" {
		t.Fatal("no sync folder after a Sync")
	}
	os.RemoveAll(first)
	p := filepath.Join(dir, "a.md")
	write(t, p, "x")
	syncNow(t, w)
	if !h.has(p) {
		t.Fatalf("%s not handed over after the sync folder was removed", p)
	}
	again := w.SyncFolder()
	if _, err := os.Stat(again); err != nil {
		t.Fatalf("no new sync folder: %v", err)
	}
	if again == first {
		t.Fatalf("the sync folder %s was not made anew", again)
	}
	w.Close()
	deadline := time.Now().Add(patience)
	for {
		if _, err := os.Stat(again); errors.Is(err, os.ErrNotExist) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s left behind after Close", again)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := w.Sync(context.Background()); err == nil {
		t.Fatal("Sync of a closed Watcher did not fail")
	}
}

// With Run, Sync returns once the batch holding the earlier changes has
// been received from the channel, not before.
func TestSyncWithRun(t *testing.T) {
	dir := t.TempDir()
	w, err := New(Options{Debounce: time.Hour, MaxDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	batches := make(chan Batch)
	go w.Run(ctx, batches, nil)
	p := filepath.Join(dir, "a.md")
	write(t, p, "x")
	synced := make(chan error, 1)
	go func() { synced <- w.Sync(ctx) }()
	select {
	case err := <-synced:
		t.Fatalf("Sync returned (%v) before its batch was received", err)
	case b := <-batches:
		if !slices.Contains(b.Paths, p) {
			t.Fatalf("the batch settled by Sync lacks %s: %v", p, b.Paths)
		}
	case <-time.After(patience):
		t.Fatal("no batch settled by Sync")
	}
	select {
	case err := <-synced:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(patience):
		t.Fatal("Sync did not return once its batch was received")
	}
}

// BenchmarkSync is one Sync of an idle Watcher run with RunFunc: the
// marker's rename and its event through Run.
func BenchmarkSync(b *testing.B) {
	dir := b.TempDir()
	w, err := New(Options{Debounce: NoDebounce})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Add(dir); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.RunFunc(ctx, func(Batch) {}, nil)
	for b.Loop() {
		if err := w.Sync(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
