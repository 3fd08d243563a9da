package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// A root removed and made again at once, with a file in it, over and over
// (as `rm -rf shop && mkdir shop && cp spec.md shop/` or a checkout does):
// the file is reported each time, and so are later changes in the tree
// made again. Every other cycle removes a folder above the root instead.
func TestRootMadeAgain(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			parent := t.TempDir()
			above := filepath.Join(parent, "work")
			root := filepath.Join(above, "shop")
			write(t, filepath.Join(root, "spec.md"), "first")
			r := start(t, mode.opts, root)
			for i := range 4 {
				var f string
				for j := range 3 {
					gone := root
					if j%2 == 1 {
						gone = above
					}
					if err := os.RemoveAll(gone); err != nil {
						t.Fatal(err)
					}
					f = filepath.Join(root, fmt.Sprintf("spec-%d-%d.md", i, j))
					write(t, f, "made again")
				}
				// The root itself is reported too, but polling cannot tell a
				// folder made again between two ticks with the same inode.
				r.reported(f)

				n := len(must(r.sent()))
				write(t, f, "changed after")
				later := filepath.Join(root, "sub", fmt.Sprintf("later-%d.md", i))
				write(t, later, "in a new folder")
				r.until(fmt.Sprintf("the changes after cycle %d", i), func(batches []Batch, _ []Notice) bool {
					return len(missing(batches[n:], []string{f, later, filepath.Dir(later)})) == 0
				})
			}
			r.until("Folders() = 2 (shop and sub)", func([]Batch, []Notice) bool { return r.w.Folders() == 2 })
			if n := lookouts(r.w); n != 0 {
				t.Errorf("%d lookouts left with the root there", n)
			}
			noneOutside(t, r, root)
		})
	}
}

// A root removed, reported and waited for a while, then made again later
// with folders nested in it: each time the tree made again is watched, and
// changes deep in it are reported. Every other cycle removes the folder
// above the root instead; a second root nested in the first comes back
// with it. The first removal is made before Run reads its events, so the
// removal of the root itself comes after the folder above it is watched
// to wait for the nested root.
func TestRootBackLater(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			parent := t.TempDir()
			above := filepath.Join(parent, "apps")
			root := filepath.Join(above, "shop")
			inner := filepath.Join(root, "specs", "one")
			write(t, filepath.Join(inner, "spec.md"), "first")
			w, err := New(mode.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []string{root, inner} {
				if err := w.Add(r); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.RemoveAll(root); err != nil {
				t.Fatal(err)
			}
			r := runWatcher(t, w)
			for i := range 4 {
				gone := root
				if i%2 == 1 {
					gone = above
				}
				n := len(must(r.sent()))
				if err := os.RemoveAll(gone); i > 0 && err != nil {
					t.Fatal(err)
				}
				r.until(fmt.Sprintf("the removal of cycle %d", i), func(batches []Batch, _ []Notice) bool {
					return len(missing(batches[n:], []string{root, inner})) == 0
				})
				r.until("the lookouts in place", func([]Batch, []Notice) bool {
					return mode.opts.Poll > 0 || lookouts(r.w) == 2
				})
				if got := r.w.Folders(); got != 0 {
					t.Errorf("cycle %d: Folders() = %d with the roots gone, want 0", i, got)
				}

				n = len(must(r.sent()))
				deep := filepath.Join(inner, "deep", fmt.Sprintf("f-%d.md", i))
				write(t, deep, "made again")
				r.until(fmt.Sprintf("the tree made again in cycle %d", i), func(batches []Batch, _ []Notice) bool {
					return len(missing(batches[n:], []string{root, inner, deep})) == 0
				})
				n = len(must(r.sent()))
				write(t, deep, "changed after")
				later := filepath.Join(root, "notes", "later.md")
				write(t, later, "in a new folder")
				r.until(fmt.Sprintf("the changes after cycle %d", i), func(batches []Batch, _ []Notice) bool {
					return len(missing(batches[n:], []string{deep, later})) == 0
				})
				r.until("Folders() = 5 (shop, specs, one, deep, notes)", func([]Batch, []Notice) bool { return r.w.Folders() == 5 })
				if n := lookouts(r.w); n != 0 {
					t.Errorf("cycle %d: %d lookouts left with the roots there", i, n)
				}
			}
			noneOutside(t, r, root)
		})
	}
}

// A root that does not exist at Add is watched once made, with the folders
// above it that were missing too, and what was made in it at once is
// reported.
func TestRootMissingAtAdd(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			parent := t.TempDir()
			root := filepath.Join(parent, "not", "yet", "shop")
			r := start(t, mode.opts, root)
			if got := r.w.Folders(); got != 0 {
				t.Errorf("Folders() = %d while the root is missing, want 0", got)
			}
			f := filepath.Join(root, "sub", "spec.md")
			write(t, f, "made with its folders") // mkdir -p, then the file
			r.reported(root, filepath.Dir(f), f)
			r.until("Folders() = 2 (shop and sub)", func([]Batch, []Notice) bool { return r.w.Folders() == 2 })

			later := filepath.Join(root, "sub", "later.md")
			write(t, later, "after")
			r.reported(later)
			noneOutside(t, r, root)
		})
	}
}

// While a root is waited for, nothing else in the folders above it is
// reported: not files or folders beside it, nor names that begin like it,
// nor a file at the root's own path (the root is a folder).
func TestLookoutQuiet(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			parent := t.TempDir()
			root := filepath.Join(parent, "shop")
			write(t, filepath.Join(parent, "old.md"), "there before")
			r := start(t, mode.opts, root)

			write(t, filepath.Join(parent, "other.md"), "beside")
			write(t, filepath.Join(parent, "shop.md"), "begins like the root")
			write(t, filepath.Join(parent, "shopping", "list.md"), "a folder that begins like it")
			write(t, filepath.Join(parent, "old.md"), "changed")
			if err := os.Rename(filepath.Join(parent, "other.md"), filepath.Join(parent, "moved.md")); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(parent, 0o750); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(parent, "shopping")); err != nil {
				t.Fatal(err)
			}
			write(t, root, "a file where the root goes")
			time.Sleep(200 * time.Millisecond) // a few ticks of polling
			if err := os.Remove(root); err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(root, "spec.md")
			write(t, f, "the root at last")
			r.reported(root, f)
			if got := r.w.Folders(); got != 1 {
				t.Errorf("Folders() = %d, want 1 (the root)", got)
			}
			noneOutside(t, r, root)
		})
	}
}

// A root waited for and then removed from the Watcher lets go of its
// lookout and is not reported when made.
func TestRemoveRootWaitedFor(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			parent, other := t.TempDir(), t.TempDir()
			root := filepath.Join(parent, "shop")
			r := start(t, mode.opts, root, other)
			if err := r.w.Remove(root); err != nil {
				t.Fatal(err)
			}
			if n := lookouts(r.w); n != 0 {
				t.Errorf("%d lookouts left after Remove", n)
			}
			write(t, filepath.Join(root, "spec.md"), "unwatched")
			marker := filepath.Join(other, "z.md")
			time.Sleep(200 * time.Millisecond) // a few ticks of polling
			write(t, marker, "watched")
			r.reported(marker)
			noneOutside(t, r, other)
		})
	}
}

// After lost events (the queue overflowed), a root removed meanwhile is
// waited for, and one waited for and made meanwhile is watched.
func TestRootAfterOverflow(t *testing.T) {
	parent := t.TempDir()
	gone, made := filepath.Join(parent, "gone"), filepath.Join(parent, "made")
	mkdir(t, gone)
	w, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{gone, made} {
		if err := w.Add(root); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	mkdir(t, made)
	// Not running yet: read the two events and drop them, as an overflow
	// would.
	deadline := time.After(patience)
	for seen := map[string]bool{}; !seen[gone] || !seen[made]; {
		select {
		case ev := <-w.fs.Events:
			seen[filepath.Clean(ev.Name)] = true
		case <-deadline:
			t.Fatalf("after %s, the events of %s and %s have not all come", patience, gone, made)
		}
	}
	w.fault(fsnotify.ErrEventOverflow)
	if got := w.Folders(); got != 1 {
		t.Errorf("Folders() = %d after the rescan, want 1 (made)", got)
	}
	if n := lookouts(w); n != 1 {
		t.Errorf("%d lookouts after the rescan, want 1 (for gone)", n)
	}
	r := runWatcher(t, w)
	f, g := filepath.Join(made, "a.md"), filepath.Join(gone, "b.md")
	write(t, f, "in the root made")
	write(t, g, "in the root made again")
	r.reported(f, g)
}

// A root whose lookout the system refuses for lack of room is found by
// polling.
func TestRootWaitedForFallback(t *testing.T) {
	w, err := New(Options{Fallback: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	refuseAfter(w, 0)
	root := filepath.Join(t.TempDir(), "shop")
	if err := w.Add(root); err != nil {
		t.Fatalf("Add when the limit is reached: %v", err)
	}
	if w.Mode() != ModePoll {
		t.Fatalf("Mode() = %q, want %q", w.Mode(), ModePoll)
	}
	r := runWatcher(t, w)
	f := filepath.Join(root, "spec.md")
	write(t, f, "found by polling")
	r.reported(root, f)
}

// lookouts is how many roots w waits for through a lookout.
func lookouts(w *Watcher) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.lookouts)
}

// noneOutside fails the test for every path reported outside root.
func noneOutside(t *testing.T, r *run, root string) {
	t.Helper()
	batches, _ := r.sent()
	for _, b := range batches {
		for _, p := range b.Paths {
			if !within(p, root) {
				t.Errorf("reported outside %s: %s", root, p)
			}
		}
	}
}
