package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// The modes of a Watcher.
const (
	ModeNotify = "fsnotify" // the system's file notifications
	ModePoll   = "poll"     // a walk and compare at every tick
)

// Options tune a Watcher. The zero value watches with notifications and
// the default times.
type Options struct {
	// Debounce is the quiet time that settles a batch; default 100ms.
	// NoDebounce settles a batch as soon as its events are read, for a
	// consumer that gathers changes itself (with RunFunc and Sync).
	Debounce time.Duration
	// MaxDelay settles a batch that keeps growing this long after its
	// first change; default 1s.
	MaxDelay time.Duration
	// Poll > 0 polls every Poll instead of using notifications.
	Poll time.Duration
	// Fallback is the poll interval used when the system refuses more
	// watches; default 2s.
	Fallback time.Duration
	// Skip names folders (absolute paths below a root) that are neither
	// descended into, watched nor reported, such as .git.
	Skip func(dir string) bool
}

// NoDebounce as Options.Debounce settles each batch at once.
const NoDebounce time.Duration = -1

// Watcher watches folder trees and reports their changes in batches.
type Watcher struct {
	opts Options
	wake chan struct{} // tells Run that the mode or the notices changed

	mu      sync.Mutex
	roots   []string
	mode    string
	every   time.Duration // the poll interval in ModePoll
	notices []Notice      // not yet handed to Run
	pend    pending
	started bool
	ended   bool

	// ModeNotify
	fs       *fsnotify.Watcher
	addWatch func(dir string) error // replaced by tests
	folders  map[string]struct{}    // watched
	skipped  map[string]struct{}    // seen and skipped
	lookouts map[string]string      // root waited for → folder watched above it
	sync     syncFolder
	awaiting map[string]*waiter // marker name → the Sync that renamed it

	// Syncs
	synced []*waiter // released once the pending batch is handed over
	polled []*waiter // waiting for a scan

	// ModePoll
	snap     map[string]entry
	snapDirs int
}

// New makes a Watcher with no roots. With opts.Poll == 0 it opens the
// system's notifications; if the system refuses (too many inotify
// instances or open files) the Watcher polls every opts.Fallback and Run
// says so with a NoticeFallback.
func New(opts Options) (*Watcher, error) {
	switch {
	case opts.Debounce == NoDebounce:
		opts.Debounce = 0
	case opts.Debounce <= 0:
		opts.Debounce = 100 * time.Millisecond
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = time.Second
	}
	if opts.Fallback <= 0 {
		opts.Fallback = 2 * time.Second
	}
	w := &Watcher{
		opts:     opts,
		wake:     make(chan struct{}, 1),
		folders:  make(map[string]struct{}),
		skipped:  make(map[string]struct{}),
		lookouts: make(map[string]string),
		awaiting: make(map[string]*waiter),
	}
	w.addWatch = func(dir string) error { return w.fs.Add(dir) }
	if opts.Poll > 0 {
		w.mode, w.every, w.snap = ModePoll, opts.Poll, make(map[string]entry)
		return w, nil
	}
	fs, err := fsnotify.NewWatcher()
	switch {
	case err == nil:
		w.mode, w.fs = ModeNotify, fs
	case isLimit(err):
		w.mode, w.fs = ModeNotify, nil
		w.fallBack(err)
	default:
		return nil, fmt.Errorf("watch: %w", err)
	}
	return w, nil
}

// Add watches the tree under root recursively, from now on: what is
// already there is not reported. Add may be called while Run runs.
//
// The root need not exist: Add of a root that does not exist yet succeeds,
// and the root is watched from when it is made. A root removed (or renamed
// away) is reported and waited for in the same way. A root that appears
// is reported with everything already in it, as a folder created under a
// root is, and its tree is watched again. To notice it, notifications
// watch the nearest existing folder above it, alone; nothing else in that
// folder is reported, and Folders does not count it. Polling looks for the
// root at every tick.
//
// Add fails when root exists but is not a folder or cannot be read, or
// when it does not exist and the folder above it cannot be watched.
func (w *Watcher) Add(root string) error {
	root, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	info, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// waited for
	case err != nil:
		return fmt.Errorf("watch: %w", err)
	case !info.IsDir():
		return fmt.Errorf("watch: %s is not a folder", root)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended {
		return errors.New("watch: the watcher has ended")
	}
	if slices.Contains(w.roots, root) {
		return nil
	}
	w.roots = append(w.roots, root)
	if w.mode == ModePoll {
		w.snapDirs += w.walkInto(root, w.snap)
		return nil
	}
	err = w.place(root, false, time.Now())
	switch {
	case err == nil:
	case isLimit(err):
		w.fallBack(err)
	default:
		w.roots = w.roots[:len(w.roots)-1]
		w.unlook(root)
		w.unwatch(root)
		return fmt.Errorf("watch: %w", err)
	}
	return nil
}

// Remove stops watching the tree under root (folders that also lie under
// another root stay watched).
func (w *Watcher) Remove(root string) error {
	root, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	i := slices.Index(w.roots, root)
	if i < 0 {
		return fmt.Errorf("watch: %s is not watched", root)
	}
	w.roots = slices.Delete(w.roots, i, i+1)
	if w.mode == ModePoll {
		for p, e := range w.snap {
			if within(p, root) && !w.inRoots(p) {
				delete(w.snap, p)
				if e.mode.IsDir() {
					w.snapDirs--
				}
			}
		}
		return nil
	}
	w.unlook(root)
	w.unwatch(root)
	return nil
}

// Mode is how the Watcher watches now: ModeNotify or ModePoll.
func (w *Watcher) Mode() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.mode
}

// Folders is the number of folders of the watched trees now: the folders
// under the roots that exist, skipped ones left out. The folder watched
// above a root that does not exist, to see it come back, is not counted.
func (w *Watcher) Folders() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mode == ModePoll {
		return w.snapDirs
	}
	return len(w.folders)
}

// Run sends settled batches to batches and notices to notices (nil: none)
// until ctx ends, then returns nil and releases the watches; a Watcher
// runs once. A batch not yet received is merged with the next one, so a
// slow receiver never makes Run miss events. Run closes neither channel.
func (w *Watcher) Run(ctx context.Context, batches chan<- Batch, notices chan<- Notice) error {
	return w.run(ctx, delivery{batches: batches, notices: notices})
}

// RunFunc is Run handing each settled batch to batch and each notice to
// notice (nil: none), called in RunFunc's goroutine in the order the
// changes were read: the notices first, then the batch they announce. The system's
// next events wait while a function runs (the system queues them; when
// its queue overflows, a Rescan batch follows). With Sync, a batch is
// handed over once batch has returned. Neither function may call Sync.
func (w *Watcher) RunFunc(ctx context.Context, batch func(Batch), notice func(Notice)) error {
	if batch == nil {
		return errors.New("watch: RunFunc needs a function for the batches")
	}
	return w.run(ctx, delivery{batch: batch, notice: notice})
}

// delivery is where a Run hands its batches and notices: channels, or
// functions called in turn.
type delivery struct {
	batches chan<- Batch
	notices chan<- Notice
	batch   func(Batch)
	notice  func(Notice)
}

func (d delivery) wantsNotices() bool { return d.notices != nil || d.notice != nil }

func (w *Watcher) run(ctx context.Context, d delivery) error {
	w.mu.Lock()
	if w.started {
		w.mu.Unlock()
		return errors.New("watch: Run called twice")
	}
	if w.ended {
		w.mu.Unlock()
		return errors.New("watch: Run of a closed Watcher")
	}
	w.started = true
	w.mu.Unlock()
	var handing []*waiter // Syncs released once ready is handed over
	defer func() {
		w.end()
		release(handing, errEnded)
	}()

	// Both timers are stopped while nothing is pending: an idle Watcher on
	// notifications sleeps in select with no timer armed.
	settle := time.NewTimer(time.Hour)
	settle.Stop()
	tick := time.NewTimer(time.Hour)
	tick.Stop()
	defer settle.Stop()
	defer tick.Stop()
	var (
		settleAt time.Time // when settle fires; zero: stopped
		ticking  bool
		ready    *Batch // settled, not yet received
		queue    []Notice
	)
	for {
		now := time.Now()
		w.mu.Lock()
		if d.wantsNotices() {
			queue = append(queue, w.notices...)
		}
		w.notices = nil
		var events <-chan fsnotify.Event
		var errs <-chan error
		if w.fs != nil {
			events, errs = w.fs.Events, w.fs.Errors
		}
		polling, every := w.mode == ModePoll, w.every
		var due time.Time
		if !w.pend.empty() {
			due = w.pend.settles(w.opts.Debounce, w.opts.MaxDelay)
			if len(w.synced) > 0 || !now.Before(due) {
				ready = merge(ready, w.pend.take(now))
				due = time.Time{}
			}
		}
		if len(w.synced) > 0 {
			// Every change made before these Syncs is in ready now.
			handing = append(handing, w.synced...)
			w.synced = nil
		}
		w.mu.Unlock()

		if d.batch != nil {
			for _, n := range queue {
				if d.notice != nil {
					d.notice(n)
				}
			}
			queue = nil
			if ready != nil {
				d.batch(*ready)
				ready = nil
			}
		}
		if ready == nil && len(handing) > 0 {
			release(handing, nil)
			handing = nil
		}

		if !due.Equal(settleAt) {
			if due.IsZero() {
				settle.Stop()
			} else {
				settle.Reset(due.Sub(now))
			}
			settleAt = due
		}
		if polling != ticking {
			if polling {
				tick.Reset(every)
			} else {
				tick.Stop()
			}
			ticking = polling
		}
		var out chan<- Batch
		var b Batch
		if ready != nil {
			out, b = d.batches, *ready
		}
		var say chan<- Notice
		var n Notice
		if len(queue) > 0 {
			say, n = d.notices, queue[0]
		}

		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-events:
			if ok {
				w.event(ev)
			}
		case err, ok := <-errs:
			if ok {
				w.fault(err)
			}
		case <-settle.C:
			settleAt = time.Time{}
		case <-tick.C:
			ticking = false
			w.scan()
		case <-w.wake:
			if w.closed() {
				return nil
			}
			if w.scanAsked() {
				w.scan()
			}
		case out <- b:
			ready = nil
		case say <- n:
			queue = queue[1:]
		}
	}
}

// Close releases the watches (the system's notifications, the folders
// watched) of a Watcher whose Run never started or has ended, and ends a
// Run still going as its context ending would. It is safe to call more
// than once; a Watcher closed cannot Run.
func (w *Watcher) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended {
		return nil
	}
	w.ended = true
	w.closeWatches()
	w.abandon()
	w.signal()
	return nil
}

// end releases the watches when Run returns.
func (w *Watcher) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended = true
	w.closeWatches()
	w.abandon()
}

// closeWatches closes the file events, forgets every watched folder and
// removes the sync folder.
func (w *Watcher) closeWatches() {
	w.dropSyncFolder()
	if w.fs != nil {
		w.fs.Close()
		w.fs = nil
	}
	clear(w.folders)
	clear(w.skipped)
	clear(w.lookouts)
}

// closed reports whether Close was called.
func (w *Watcher) closed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ended
}

// note queues a notice for Run.
func (w *Watcher) note(n Notice) {
	w.notices = append(w.notices, n)
	w.signal()
}

// signal wakes Run.
func (w *Watcher) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// skips says whether the folder p, below a root, is skipped.
func (w *Watcher) skips(p string) bool {
	if p == w.sync.dir {
		return true
	}
	return w.opts.Skip != nil && !slices.Contains(w.roots, p) && w.opts.Skip(p)
}

// inRoots says whether p is a root or lies under one.
func (w *Watcher) inRoots(p string) bool {
	for _, r := range w.roots {
		if within(p, r) {
			return true
		}
	}
	return false
}

// within says whether p is dir or lies under it.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir) && p[len(dir)] == filepath.Separator
}
