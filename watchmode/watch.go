package watchmode

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/watch"
)

// retryAfter is how long watch waits before it tries again a drift run
// that found the store locked by another run.
const retryAfter = time.Second

// Options are what a watch follows and how it saves.
type Options struct {
	// Pipelines, Memory and Context choose what is watched.
	Pipelines, Memory, Context bool
	// Project limits the pipelines to one project; Home is the pipeline
	// home ("" the store's pipelines/), UserHome the folder ~ is.
	Project, Home, UserHome string
	// Serve is the address of the live dashboard ("" none); AllowHosts
	// are host names besides its own that it answers.
	Serve      string
	AllowHosts []string
	// Debounce is the quiet time that ends a batch of file events;
	// CurateAfter the quiet time after inbox or reflection changes before a
	// curation runs; Poll, when set, polls instead of using file events.
	Debounce, CurateAfter, Poll time.Duration
	// Curate is the context curation that new reflections start.
	Curate *playbook.CurateRequest
	// Store opens the store (again for each run: its files change).
	Store func() (*mdstore.Store, error)
	// Tx and Save are the options of each run's transaction and save.
	Tx   mdstore.TxOptions
	Save []mdstore.SaveOption
	// Agent is the agent watch curates as (config.yaml's access levels).
	Agent string
	// Emit receives the events, one at a time, in order.
	Emit func(Event)
}

// watcher is one watch: what it follows and the timers of the runs it owes.
type watcher struct {
	opts  *Options
	log   eventLog
	files *watch.Watcher
	// store is nil when only a pipeline home outside every store is watched.
	store *mdstore.Store
	// inbox and pending are the folders of new memories and reflections.
	inbox, pending string
	pipes          *pipelines
	// projects are the pipeline projects followed now, by name; roots the
	// project folders under watch.
	projects map[string]*pipeline.Followed
	roots    map[string]bool
	live     *liveServer
	// owed are the projects whose drift run is still to be made (the store
	// was locked); the timers fire the runs owed.
	owed                      map[string]bool
	driftTimer, memTimer, ctx *time.Timer
	// written is the state file each project had after watch's own last
	// drift run, so that watch does not report its own writes as changes.
	written map[string][sha256.Size]byte
}

// eventLog hands the events to Options.Emit.
type eventLog struct{ emitTo func(Event) }

func (l eventLog) emit(e Event) { l.emitTo(e) }

// Run watches until ctx ends: it follows what opts asks for and saves
// what changes, one run per settled batch of events.
func Run(ctx context.Context, opts *Options) error {
	w := &watcher{opts: opts, projects: map[string]*pipeline.Followed{}, roots: map[string]bool{}, owed: map[string]bool{},
		written: map[string][sha256.Size]byte{}, log: eventLog{opts.Emit}}
	s, err := opts.Store()
	if err != nil && (opts.Memory || opts.Context || opts.Home == "" || !errors.Is(err, mdstore.ErrNoStore)) {
		return err
	}
	w.store = s
	if w.files, err = watch.New(watch.Options{Debounce: opts.Debounce, Poll: opts.Poll, Skip: w.skip}); err != nil {
		return err
	}
	defer w.files.Close()
	roots, err := w.start()
	if err != nil {
		return err
	}
	for _, r := range roots {
		if err := w.files.Add(r); err != nil {
			if !w.roots[r] {
				return fmt.Errorf("watching %s: %w", r, err)
			}
			// a project folder that cannot be watched leaves the others
			w.log.emit(Event{Event: "error", Message: fmt.Sprintf("watching %s: %v", r, err)})
		}
	}
	if opts.Serve != "" {
		if w.live, err = serveLive(w, opts.Serve, opts.AllowHosts); err != nil {
			return err
		}
		defer w.live.close()
	}
	batches, notices := make(chan watch.Batch, 16), make(chan watch.Notice, 16)
	done := make(chan error, 1)
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { done <- w.files.Run(runCtx, batches, notices) }()
	ev := Event{Event: "watching", Mode: w.files.Mode(), Roots: roots, Folders: w.files.Folders()}
	if w.live != nil {
		ev.URL = w.live.url
	}
	w.log.emit(ev)
	w.driftTimer, w.memTimer, w.ctx = idleTimer(), idleTimer(), idleTimer()
	for {
		select {
		case <-ctx.Done():
			stop()
			<-done
			w.log.emit(Event{Event: "stopped"})
			return nil
		case err := <-done:
			// The watcher also ends when ctx does, and may be seen first.
			if ctx.Err() != nil {
				w.log.emit(Event{Event: "stopped"})
				return nil
			}
			return err
		case n := <-notices:
			w.log.emit(Event{Event: "notice", Summary: n.Kind, Message: n.Message})
		case b := <-batches:
			w.handle(b)
		case <-w.driftTimer.C:
			w.recordDrift(nil)
		case <-w.memTimer.C:
			w.curateMemory()
		case <-w.ctx.C:
			w.curateContext()
		}
	}
}

// idleTimer is a stopped timer, armed later with Reset.
func idleTimer() *time.Timer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}

// start finds what to watch: the folders of new memories and reflections,
// the pipeline home and the projects' folders.
func (w *watcher) start() ([]string, error) {
	var roots []string
	if w.opts.Memory {
		w.inbox = w.store.Path("memory/inbox")
		roots = append(roots, w.inbox)
	}
	if w.opts.Context {
		w.pending = w.store.Path("context/reflections/pending")
		roots = append(roots, w.pending)
	}
	for _, r := range roots {
		if err := os.MkdirAll(r, 0o755); err != nil {
			return nil, err
		}
	}
	if !w.opts.Pipelines {
		return roots, nil
	}
	var err error
	if w.pipes, err = openPipelines(w.opts); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(w.pipes.Dir, 0o755); err != nil {
		return nil, err
	}
	roots = append(roots, w.pipes.Dir)
	w.reloadProjects()
	for r := range w.roots {
		roots = append(roots, r)
	}
	sort.Strings(roots[len(roots)-len(w.roots):])
	return roots, nil
}

// skip keeps git's folder, the store and the pipeline home out of the
// project folders under watch (the store's folders that matter are roots
// of their own).
func (w *watcher) skip(dir string) bool {
	if filepath.Base(dir) == ".git" {
		return true
	}
	if w.store != nil && dir == w.store.Dir {
		return true
	}
	return w.pipes != nil && dir == w.pipes.Dir
}

// reloadProjects reads the projects' states again and returns the project
// folders that came and went from the states. A project folder removed
// stays under watch, so that it is followed again when it comes back.
func (w *watcher) reloadProjects() (added, removed []string) {
	followed, problems, err := w.pipes.Projects()
	if err != nil {
		w.log.emit(Event{Event: "error", Message: err.Error()})
		return nil, nil
	}
	for _, p := range problems {
		w.log.emit(Event{Event: "error", Message: p.Error()})
	}
	w.projects = map[string]*pipeline.Followed{}
	roots := map[string]bool{}
	for _, f := range followed {
		w.projects[f.Project] = f
		if f.ProjectPath != "" {
			// watched while it is missing too: the watcher waits for it
			roots[filepath.Clean(f.ProjectPath)] = true
		}
	}
	for r := range roots {
		if !w.roots[r] {
			added = append(added, r)
		}
	}
	for r := range w.roots {
		if !roots[r] {
			removed = append(removed, r)
		}
	}
	w.roots = roots
	return added, removed
}

// handle routes one settled batch of changed paths: drift runs at once,
// curations after their quiet time.
func (w *watcher) handle(b watch.Batch) {
	drift := map[string]bool{}
	states := map[string]bool{}
	inbox, pending := false, false
	if b.Rescan {
		for p := range w.projects {
			drift[p] = true
		}
		inbox, pending = w.opts.Memory, w.opts.Context
	}
	for _, p := range b.Paths {
		switch {
		case w.inbox != "" && within(p, w.inbox):
			inbox = inbox || isMarkdownFile(p)
		case w.pending != "" && within(p, w.pending):
			pending = pending || isFile(p)
		case w.pipes != nil:
			if name, ok := w.pipes.IsState(p); ok {
				states[name] = true
				continue
			}
			for name, f := range w.projects {
				for _, a := range f.Artifacts {
					if a == p || within(a, p) {
						drift[name] = true
					}
				}
			}
		}
	}
	if len(states) > 0 || b.Rescan {
		added, removed := w.reloadProjects()
		for _, r := range added {
			if err := w.files.Add(r); err != nil {
				w.log.emit(Event{Event: "error", Message: fmt.Sprintf("watching %s: %v", r, err)})
			}
		}
		for _, r := range removed {
			w.files.Remove(r)
		}
		for name := range states {
			if w.stateSum(name) == w.written[name] {
				continue // watch's own drift run wrote it
			}
			if w.opts.Project == "" || name == w.opts.Project {
				w.log.emit(Event{Event: "state", Project: name})
				w.live.notify(name)
			}
		}
	}
	if len(drift) > 0 {
		w.recordDrift(drift)
	}
	if inbox {
		w.memTimer.Reset(w.opts.CurateAfter)
	}
	if pending {
		w.ctx.Reset(w.opts.CurateAfter)
	}
}

// recordDrift records the drift of the projects given and of those owed
// from an earlier batch, as one run.
func (w *watcher) recordDrift(projects map[string]bool) {
	for p := range projects {
		w.owed[p] = true
	}
	var names []string
	for p := range w.owed {
		if _, ok := w.projects[p]; ok {
			names = append(names, p)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		w.owed = map[string]bool{}
		return
	}
	run, err := w.pipes.RecordDrift(names)
	if busy(err) {
		w.log.emit(Event{Event: "busy", Message: fmt.Sprintf("%v; drift of %s recorded when it is free", err, strings.Join(names, ", "))})
		w.driftTimer.Reset(retryAfter)
		return
	}
	w.owed = map[string]bool{}
	if err != nil {
		w.log.emit(Event{Event: "error", Err: err})
	}
	if run == nil {
		return
	}
	for _, p := range run.Problems {
		w.log.emit(Event{Event: "error", Message: p.Error()})
	}
	if err != nil {
		return
	}
	commit := run.Commit
	for _, r := range run.Changed {
		w.written[r.Project] = w.stateSum(r.Project)
		for _, d := range r.Cleared {
			w.log.emit(Event{Event: "drift-cleared", Project: r.Project, Phase: d.Phase, Path: d.Path, ValidatedSHA256: d.ValidatedSHA256, Commit: commit})
		}
		for _, d := range r.Drift {
			if r.State != nil && d.DetectedAt != r.State.UpdatedAt {
				continue // recorded before
			}
			w.log.emit(Event{Event: "drift", Project: r.Project, Phase: d.Phase, Path: d.Path, Change: d.Change,
				ValidatedSHA256: d.ValidatedSHA256, SHA256: d.SHA256, ModifiedAt: d.ModifiedAt, Commit: commit})
		}
		w.live.notify(r.Project)
	}
}

// stateSum is the sha256 of a project's state file as it is now.
func (w *watcher) stateSum(project string) [sha256.Size]byte {
	data, _ := os.ReadFile(filepath.Join(w.pipes.Dir, pipeline.StateName(project)))
	return sha256.Sum256(data)
}

// busy reports whether err says another run holds the store.
func busy(err error) bool {
	return errors.Is(err, mdstore.ErrLocked) || errors.Is(err, mdstore.ErrGitLocked)
}

// within reports whether path is inside dir (not dir itself).
func within(path, dir string) bool {
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func isMarkdownFile(p string) bool {
	return strings.HasSuffix(p, ".md") && isFile(p)
}
