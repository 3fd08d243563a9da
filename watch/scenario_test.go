package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// scenario is a change made under a watched folder and the paths it must
// report.
type scenario struct {
	name  string
	setup func(t *testing.T, dir string)          // before the watch
	act   func(t *testing.T, dir string) []string // returns the paths to report
}

var scenarios = []scenario{{
	name: "create",
	act: func(t *testing.T, dir string) []string {
		write(t, filepath.Join(dir, "a.md"), "one")
		return []string{filepath.Join(dir, "a.md")}
	},
}, {
	name:  "modify",
	setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "a.md"), "one") },
	act: func(t *testing.T, dir string) []string {
		write(t, filepath.Join(dir, "a.md"), "one and two")
		return []string{filepath.Join(dir, "a.md")}
	},
}, {
	name:  "rename over",
	setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "a.md"), "one") },
	act: func(t *testing.T, dir string) []string {
		a, tmp := filepath.Join(dir, "a.md"), filepath.Join(dir, ".a.md.tmp")
		write(t, tmp, "two")
		if err := os.Rename(tmp, a); err != nil {
			t.Fatal(err)
		}
		return []string{a}
	},
}, {
	name:  "delete",
	setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "sub", "a.md"), "one") },
	act: func(t *testing.T, dir string) []string {
		a := filepath.Join(dir, "sub", "a.md")
		if err := os.Remove(a); err != nil {
			t.Fatal(err)
		}
		return []string{a}
	},
}, {
	name: "mkdir then create inside at once",
	act: func(t *testing.T, dir string) []string {
		var want []string
		for i := range 20 {
			f := filepath.Join(dir, fmt.Sprintf("d%02d", i), "x", "y", "f.md")
			write(t, f, "made with its folders")
			want = append(want, f, filepath.Join(dir, fmt.Sprintf("d%02d", i), "x", "y"))
		}
		return want
	},
}, {
	name:  "touch without change",
	setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "a.md"), "one") },
	act: func(t *testing.T, dir string) []string {
		a := filepath.Join(dir, "a.md")
		if err := os.Chmod(a, 0o600); err != nil {
			t.Fatal(err)
		}
		later := time.Now().Add(time.Hour)
		if err := os.Chtimes(a, later, later); err != nil {
			t.Fatal(err)
		}
		return []string{a}
	},
}}

func TestScenarios(t *testing.T) {
	for _, mode := range modes {
		for _, sc := range scenarios {
			t.Run(mode.name+"/"+sc.name, func(t *testing.T) {
				dir := t.TempDir()
				if sc.setup != nil {
					sc.setup(t, dir)
				}
				r := start(t, mode.opts, dir)
				if got := r.w.Mode(); got != mode.name {
					t.Fatalf("Mode() = %q, want %q", got, mode.name)
				}
				want := sc.act(t, dir)
				r.reported(want...)
				batches, _ := r.sent()
				for _, b := range batches {
					if b.Rescan {
						t.Errorf("batch %v asks for a rescan", summary([]Batch{b}))
					}
					if b.At.IsZero() {
						t.Errorf("batch %v has no time", b.Paths)
					}
					for i, p := range b.Paths {
						if !filepath.IsAbs(p) || filepath.Clean(p) != p || !strings.HasPrefix(p, dir) {
							t.Errorf("path %q is not clean, absolute and under %s", p, dir)
						}
						if i > 0 && b.Paths[i-1] >= p {
							t.Errorf("paths not sorted and unique: %q then %q", b.Paths[i-1], p)
						}
					}
				}
			})
		}
	}
}

// An editor's save (write a temporary file, rename it over, chmod) is one batch.
func TestEditorSaveIsOneBatch(t *testing.T) {
	dir := t.TempDir()
	a, tmp := filepath.Join(dir, "a.md"), filepath.Join(dir, "a.md~")
	write(t, a, "one")
	r := start(t, Options{Debounce: 200 * time.Millisecond}, dir)
	write(t, tmp, "two")
	if err := os.Rename(tmp, a); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(a, 0o600); err != nil {
		t.Fatal(err)
	}
	r.reported(a, tmp)
	batches, _ := r.sent()
	if len(batches) != 1 {
		t.Errorf("a save gave %d batches, want 1: %v", len(batches), summary(batches))
	}
}

// A burst of files written in a loop arrives whole, in a few batches.
func TestBurst(t *testing.T) {
	dir := t.TempDir()
	r := start(t, Options{}, dir)
	var want []string
	for i := range 1000 {
		f := filepath.Join(dir, fmt.Sprintf("f%04d.md", i))
		write(t, f, "burst")
		want = append(want, f)
	}
	r.reported(want...)
	batches, _ := r.sent()
	if len(batches) > 10 {
		t.Errorf("1,000 files came in %d batches, want at most 10", len(batches))
	}
}

// Changes that keep coming are still delivered, MaxDelay after the first.
func TestMaxDelay(t *testing.T) {
	dir := t.TempDir()
	r := start(t, Options{Debounce: 500 * time.Millisecond, MaxDelay: 200 * time.Millisecond}, dir)
	stop := time.Now().Add(3 * time.Second)
	for i := 0; time.Now().Before(stop); i++ {
		write(t, filepath.Join(dir, fmt.Sprintf("f%04d.md", i)), "steady")
		if batches, _ := r.sent(); len(batches) > 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no batch while changes kept coming every 20ms for 3s, with MaxDelay 200ms")
}

// A removed folder's watch goes, and the folder made again is watched again.
func TestFolderRemovedAndMadeAgain(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	mkdir(t, filepath.Join(sub, "deeper"))
	r := start(t, Options{}, dir)
	if got := r.w.Folders(); got != 3 {
		t.Fatalf("Folders() = %d, want 3", got)
	}
	if err := os.RemoveAll(sub); err != nil {
		t.Fatal(err)
	}
	r.reported(sub)
	r.until("Folders() back to 1", func([]Batch, []Notice) bool { return r.w.Folders() == 1 })

	f := filepath.Join(sub, "deeper", "f.md")
	write(t, f, "again")
	r.reported(f)
	if got := r.w.Folders(); got != 3 {
		t.Errorf("Folders() = %d after making the folders again, want 3", got)
	}
	write(t, f, "and changed")
	n := len(must(r.sent()))
	r.until("the change in the new folder", func(batches []Batch, _ []Notice) bool {
		return len(missing(batches[n:], []string{f})) == 0
	})
}

// A folder renamed away is dropped; under its new name it is watched.
func TestFolderRenamed(t *testing.T) {
	dir := t.TempDir()
	old, renamed := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	write(t, filepath.Join(old, "in", "a.md"), "one")
	r := start(t, Options{}, dir)
	if err := os.Rename(old, renamed); err != nil {
		t.Fatal(err)
	}
	r.reported(old, renamed, filepath.Join(renamed, "in", "a.md"))
	r.until("Folders() = 3", func([]Batch, []Notice) bool { return r.w.Folders() == 3 })
	f := filepath.Join(renamed, "in", "b.md")
	write(t, f, "two")
	r.reported(f)
	batches, _ := r.sent()
	for _, b := range batches {
		for _, p := range b.Paths {
			if strings.HasPrefix(p, filepath.Join(old, "in")+string(filepath.Separator)) {
				t.Errorf("a change under the new name was reported under the old one: %s", p)
			}
		}
	}
}

// Skipped folders are neither watched nor reported, in either mode.
func TestSkip(t *testing.T) {
	skip := func(dir string) bool { return filepath.Base(dir) == ".git" }
	for _, opts := range []Options{{Skip: skip}, {Skip: skip, Poll: 50 * time.Millisecond}} {
		t.Run(fmt.Sprint("poll=", opts.Poll), func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, ".git", "objects", "HEAD"), "ref")
			write(t, filepath.Join(dir, "a.md"), "one")
			r := start(t, opts, dir)
			if got := r.w.Folders(); got != 1 {
				t.Errorf("Folders() = %d, want 1 (the root; .git skipped)", got)
			}
			write(t, filepath.Join(dir, ".git", "objects", "HEAD"), "another ref")
			write(t, filepath.Join(dir, "sub", ".git", "x"), "made with its folder")
			time.Sleep(100 * time.Millisecond)
			write(t, filepath.Join(dir, ".git", "index"), "index")
			marker := filepath.Join(dir, "sub", "z.md")
			write(t, marker, "after the rest")
			r.reported(marker, filepath.Join(dir, "sub"))
			batches, _ := r.sent()
			for _, b := range batches {
				for _, p := range b.Paths {
					if strings.Contains(p, ".git") {
						t.Errorf("skipped path reported: %s", p)
					}
				}
			}
			if got := r.w.Folders(); got != 2 {
				t.Errorf("Folders() = %d, want 2 (root and sub)", got)
			}
		})
	}
}

// A root removed is no longer watched.
func TestRemoveRoot(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	mkdir(t, filepath.Join(dir, "sub"))
	r := start(t, Options{}, dir, other)
	if got := r.w.Folders(); got != 3 {
		t.Fatalf("Folders() = %d, want 3", got)
	}
	if err := r.w.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if got := r.w.Folders(); got != 1 {
		t.Errorf("Folders() = %d after Remove, want 1", got)
	}
	if err := r.w.Remove(dir); err == nil {
		t.Error("removing a root twice is no error")
	}
	write(t, filepath.Join(dir, "sub", "a.md"), "unwatched")
	marker := filepath.Join(other, "z.md")
	write(t, marker, "watched")
	r.reported(marker)
	if m := missing(must(r.sent()), []string{filepath.Join(dir, "sub", "a.md")}); len(m) == 0 {
		t.Error("a change under a removed root was reported")
	}
}

// A root added while running is watched from then on.
func TestAddWhileRunning(t *testing.T) {
	for _, opts := range []Options{{}, {Poll: 50 * time.Millisecond}} {
		t.Run(fmt.Sprint("poll=", opts.Poll), func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "old.md"), "there before")
			r := start(t, opts)
			if err := r.w.Add(dir); err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, "a.md")
			write(t, f, "one")
			r.reported(f)
			if m := missing(must(r.sent()), []string{filepath.Join(dir, "old.md")}); len(m) == 0 {
				t.Error("a file there before Add was reported")
			}
		})
	}
}

// With nothing changing, nothing is sent. (Nothing runs either: Run waits
// with no timer armed until an event arrives; see Run.)
func TestIdle(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sub", "a.md"), "one")
	r := start(t, Options{}, dir)
	time.Sleep(300 * time.Millisecond)
	if batches, notices := r.sent(); len(batches)+len(notices) > 0 {
		t.Errorf("idle watcher sent %v %v", summary(batches), notices)
	}
	f := filepath.Join(dir, "sub", "a.md")
	write(t, f, "awake")
	r.reported(f)
}

func TestRunTwice(t *testing.T) {
	r := start(t, Options{}, t.TempDir())
	r.until("Run to start", func([]Batch, []Notice) bool {
		r.w.mu.Lock()
		defer r.w.mu.Unlock()
		return r.w.started
	})
	if err := r.w.Run(t.Context(), make(chan Batch), nil); err == nil {
		t.Error("a second Run is no error")
	}
}

func must[T, U any](t T, _ U) T { return t }
