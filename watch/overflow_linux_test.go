package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The kernel's event queue really overflows while nobody reads it: the
// Watcher says so and asks for a rescan; a folder made while events were
// lost is watched after.
func TestKernelQueueOverflow(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events")
	if err != nil {
		t.Skip(err)
	}
	queue, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || queue > 65536 {
		t.Skipf("max_queued_events = %s: too many files to write", b)
	}
	dir := t.TempDir()
	w, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	// Not running yet: nobody reads. Each file is a create and a write;
	// fsnotify holds a few thousand events read before the queue fills.
	for i := range queue/2 + 4096 {
		write(t, filepath.Join(dir, fmt.Sprintf("f%05d", i)), "x")
	}
	lost := filepath.Join(dir, "made-while-lost")
	mkdir(t, lost)
	r := runWatcher(t, w)
	r.until("an overflow notice and a rescan batch", func(batches []Batch, notices []Notice) bool {
		rescan, overflow := false, false
		for _, b := range batches {
			rescan = rescan || b.Rescan
		}
		for _, n := range notices {
			overflow = overflow || n.Kind == NoticeOverflow && strings.Contains(n.Message, "max_queued_events")
		}
		return rescan && overflow
	})
	r.until("the folder made while events were lost watched", func([]Batch, []Notice) bool { return w.Folders() == 2 })
	f := filepath.Join(lost, "a.md")
	write(t, f, "seen")
	r.reported(f)
}
