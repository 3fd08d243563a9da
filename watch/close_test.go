package watch

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"
)

// openFiles counts this process's open file descriptors (Linux).
func openFiles(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("needs /proc/self/fd")
	}
	return len(ents)
}

// A Watcher that never runs releases its notifications when closed: a
// caller that fails between New and Run leaks nothing.
func TestCloseWithoutRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts file descriptors in /proc")
	}
	dir := t.TempDir()
	before := openFiles(t)
	for range 20 {
		w, err := New(Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Add(dir); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatalf("a second Close: %v", err)
		}
		if err := w.Run(context.Background(), make(chan Batch), nil); err == nil {
			t.Fatal("Run of a closed Watcher started")
		}
	}
	if after := openFiles(t); after > before+2 {
		t.Errorf("%d files open before, %d after 20 watchers closed", before, after)
	}
}

// Close ends a Run that is going, as its context ending would.
func TestCloseEndsRun(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			w, err := New(m.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Add(t.TempDir()); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- w.Run(context.Background(), make(chan Batch), make(chan Notice)) }()
			time.Sleep(50 * time.Millisecond)
			w.Close()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
			case <-time.After(patience):
				t.Fatal("Run went on after Close")
			}
		})
	}
}
