package watch

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// refuseAfter makes w's watches fail as the inotify watch limit does
// (ENOSPC) once n folders are watched.
func refuseAfter(w *Watcher, n int) {
	add, added := w.addWatch, 0
	w.addWatch = func(dir string) error {
		if added >= n {
			return fmt.Errorf("add watch %s: %w", dir, syscall.ENOSPC)
		}
		added++
		return add(dir)
	}
}

// When the system refuses a watch, the Watcher polls, says so and how to
// raise the limit, asks for a rescan, and changes are still reported.
func TestFallback(t *testing.T) {
	for _, when := range []string{"at Add", "while running"} {
		t.Run(when, func(t *testing.T) {
			dir := t.TempDir()
			mkdir(t, filepath.Join(dir, "a", "b"))
			w, err := New(Options{Fallback: 50 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			limit := 2 // root and a: b is refused at Add
			if when == "while running" {
				limit = 4 // b and c pass, d is refused
			}
			refuseAfter(w, limit)
			if err := w.Add(dir); err != nil {
				t.Fatalf("Add when the limit is reached: %v", err)
			}
			r := runWatcher(t, w)
			if when == "while running" {
				if w.Mode() != ModeNotify {
					t.Fatalf("Mode() = %q before the limit", w.Mode())
				}
				c := filepath.Join(dir, "c", "c.md")
				write(t, c, "watched")
				r.reported(c)
				mkdir(t, filepath.Join(dir, "d"))
			}
			var notice Notice
			r.until("a fallback notice", func(_ []Batch, notices []Notice) bool {
				for _, n := range notices {
					if n.Kind == NoticeFallback {
						notice = n
						return true
					}
				}
				return false
			})
			for _, want := range []string{"polling every 50ms"} {
				if !strings.Contains(notice.Message, want) {
					t.Errorf("notice %q does not say %q", notice.Message, want)
				}
			}
			if runtime.GOOS == "linux" && !strings.Contains(notice.Message, "sysctl fs.inotify.max_user_watches=") {
				t.Errorf("notice %q does not say how to raise the limit", notice.Message)
			}
			r.until("a rescan batch", func(batches []Batch, _ []Notice) bool {
				for _, b := range batches {
					if b.Rescan {
						return true
					}
				}
				return false
			})
			if w.Mode() != ModePoll {
				t.Errorf("Mode() = %q after the fallback, want %q", w.Mode(), ModePoll)
			}
			f := filepath.Join(dir, "a", "b", "f.md")
			write(t, f, "found by polling")
			r.reported(f)
			want := 3 // root, a, b
			if when == "while running" {
				want = 5 // and c, d
			}
			if got := w.Folders(); got != want {
				t.Errorf("Folders() = %d when polling, want %d", got, want)
			}
		})
	}
}

// A lost event (the queue overflowed) gives a notice and a rescan batch.
func TestOverflowNotice(t *testing.T) {
	dir := t.TempDir()
	r := start(t, Options{}, dir)
	r.w.fault(fsnotify.ErrEventOverflow)
	r.until("an overflow notice and a rescan batch", func(batches []Batch, notices []Notice) bool {
		rescan, overflow := false, false
		for _, b := range batches {
			rescan = rescan || b.Rescan
		}
		for _, n := range notices {
			overflow = overflow || n.Kind == NoticeOverflow
		}
		return rescan && overflow
	})
	f := filepath.Join(dir, "a.md")
	write(t, f, "still watched")
	r.reported(f)
}
