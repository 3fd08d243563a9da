package live

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/fsnotify/fsnotify"
)

// The follower of a live listing: one fsnotify watcher on the memory
// folders, on the folders above them (to see a folder come, go or be
// renamed) and on a folder of the process's own that holds the barrier
// file. A goroutine takes every event and marks what it names: a record
// file as dirty, a folder as to be scanned again. Nothing is read there;
// the listing reads what is marked when it is asked.
//
// The barrier makes "a change that completed before List is called is in
// its answer" hold. inotify queues the events of one watcher in the order
// the changes happen (an event is queued by the system call that makes
// the change, before it returns), and fsnotify passes them on in that
// order through one goroutine and unbuffered channels (an overflow error
// too, in its place). So List renames the barrier file and waits until
// that rename's event comes through: by then every change that completed
// before List was called has been marked. The barrier is a rename, so it
// makes no inode and costs some microseconds; its new name is unique, so
// a late event of an earlier barrier cannot be taken for it.
//
// The barrier folder is made in the system's temporary folder, so that
// following a store changes nothing in it.
//
// A folder's watch is placed each time the folder is scanned, before it
// is listed. An event that names a folder (made, removed, renamed, its
// attributes changed) marks it and its subfolders to be scanned again, so
// a folder replaced under the same name, or moved away and back, is
// listed anew and watched again.
//
// When events may have been lost — the system's queue overflowed, fsnotify
// reported an error, or the barrier's event did not come within
// barrierWait — the listing reads every file again, as ListMemories does.

// barrierWait bounds the wait for the barrier's event.
const barrierWait = 5 * time.Second

// errUnfollowable says the watches cannot follow the folders; the listing
// then reads the files at every call.
type errUnfollowable struct{ why string }

func (e *errUnfollowable) Error() string { return e.why }

// liveMarks is what the events marked since the last listing took them.
type liveMarks struct {
	dirty  map[string]struct{} // store-relative record paths
	rescan leafMask            // folders to list again
	lost   error               // events may have been lost: read everything
}

// liveFollower watches the memory folders and marks what changes.
type liveFollower struct {
	w    *fsnotify.Watcher
	done chan struct{} // the event goroutine has ended

	parents []string            // the store, memory, memory/confirmed (absolute)
	leafAbs []string            // liveLeaves, absolute
	leafOf  map[string]int      // absolute folder → leaf
	folders map[string]leafMask // absolute folder → the leaves its events concern

	barrierDir  string // the process's own folder holding the barrier file
	barrierName string // the barrier file's current name
	seq         uint64

	mu      sync.Mutex
	marks   liveMarks
	await   string        // the barrier name whose event List waits for
	arrived chan struct{} // closed when it comes (or when events are lost)
}

// startFollower opens the watcher and the barrier; the folders are watched
// when the listing scans them. The error says why the store cannot be
// followed.
func startFollower(dir string) (*liveFollower, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("cannot open file notifications: %w", err)
	}
	f := &liveFollower{
		w:       w,
		done:    make(chan struct{}),
		leafOf:  make(map[string]int),
		folders: make(map[string]leafMask),
		marks:   liveMarks{dirty: make(map[string]struct{})},
	}
	all := leafMask(1)<<len(liveLeaves) - 1
	var confirmed leafMask
	for i, l := range liveLeaves {
		abs := filepath.Join(dir, filepath.FromSlash(l.rel))
		f.leafAbs = append(f.leafAbs, abs)
		f.leafOf[abs] = i
		f.folders[abs] = 1 << i
		if l.status == statusIndex("confirmed") {
			confirmed |= 1 << i
		}
	}
	f.parents = []string{dir, filepath.Join(dir, "memory"), filepath.Join(dir, "memory", "confirmed")}
	f.folders[f.parents[0]] = all
	f.folders[f.parents[1]] = all
	f.folders[f.parents[2]] = confirmed
	go f.run()
	if err := f.newBarrier(); err != nil {
		f.close()
		return nil, fmt.Errorf("cannot make the barrier file: %w", err)
	}
	return f, nil
}

// run takes the events until the watcher is closed.
func (f *liveFollower) run() {
	defer close(f.done)
	events, errs := f.w.Events, f.w.Errors
	for events != nil || errs != nil {
		select {
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			f.note(ev.Name, ev.Has(fsnotify.Create))
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			f.lose(fmt.Errorf("file notifications: %w", err))
		}
	}
}

// note marks what an event names.
func (f *liveFollower) note(name string, created bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if created && name == f.await {
		close(f.arrived)
		f.await, f.arrived = "", nil
		return
	}
	if m, ok := f.folders[name]; ok {
		f.marks.rescan |= m
		return
	}
	i := strings.LastIndexByte(name, filepath.Separator)
	if i < 0 {
		return
	}
	if leaf, ok := f.leafOf[name[:i]]; ok && mdstore.IsRecordName(name[i+1:]) {
		f.marks.dirty[liveLeaves[leaf].rel+"/"+name[i+1:]] = struct{}{}
	}
}

// lose records that events may have been lost and ends a wait for the
// barrier (its event may be among them).
func (f *liveFollower) lose(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.marks.lost == nil {
		f.marks.lost = err
	}
	if f.arrived != nil {
		close(f.arrived)
		f.await, f.arrived = "", nil
	}
}

// take returns the marks and starts new ones.
func (f *liveFollower) take() liveMarks {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.marks
	f.marks = liveMarks{dirty: make(map[string]struct{})}
	return m
}

// putBack returns marks that a listing could not act on.
func (f *liveFollower) putBack(m liveMarks) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for rel := range m.dirty {
		f.marks.dirty[rel] = struct{}{}
	}
	f.marks.rescan |= m.rescan
	if f.marks.lost == nil {
		f.marks.lost = m.lost
	}
}

// newBarrier makes a new barrier folder and file (at start, and when the
// folder is gone: a cleaner of the temporary folder removed it).
func (f *liveFollower) newBarrier() error {
	dir, err := os.MkdirTemp("", "curator-live-")
	if err != nil {
		return err
	}
	if err := f.w.Add(dir); err != nil {
		os.RemoveAll(dir)
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "b0"), nil, 0o600); err != nil {
		f.w.Remove(dir)
		os.RemoveAll(dir)
		return err
	}
	if f.barrierDir != "" {
		f.w.Remove(f.barrierDir)
		os.RemoveAll(f.barrierDir)
	}
	f.barrierDir, f.barrierName, f.seq = dir, "b0", 0
	return nil
}

// barrier returns once every change that completed before it was called
// has been marked, or events were lost (then the marks say so).
func (f *liveFollower) barrier() {
	err := f.pass()
	if errors.Is(err, fs.ErrNotExist) {
		if err = f.newBarrier(); err == nil {
			err = f.pass()
		}
	}
	if err != nil {
		f.lose(fmt.Errorf("barrier: %w", err))
	}
}

// pass renames the barrier file and waits for the rename's event.
func (f *liveFollower) pass() error {
	f.seq++
	next := "b" + strconv.FormatUint(f.seq, 10)
	to := filepath.Join(f.barrierDir, next)
	arrived := make(chan struct{})
	f.mu.Lock()
	if f.marks.lost != nil {
		f.mu.Unlock()
		return nil // everything is read again anyway
	}
	f.await, f.arrived = to, arrived
	f.mu.Unlock()
	if err := os.Rename(filepath.Join(f.barrierDir, f.barrierName), to); err != nil {
		f.mu.Lock()
		if f.await == to {
			f.await, f.arrived = "", nil
		}
		f.mu.Unlock()
		return err
	}
	f.barrierName = next
	t := time.NewTimer(barrierWait)
	defer t.Stop()
	select {
	case <-arrived:
		return nil
	case <-t.C:
		return fmt.Errorf("its event did not come within %v", barrierWait)
	}
}

// watchParents watches the folders above the memory folders, so that a
// memory folder made, removed or renamed is seen. A missing one is skipped:
// the one above it sees it come.
func (f *liveFollower) watchParents() error {
	for _, p := range f.parents {
		if err := f.watch(p); err != nil && !missing(err) {
			return err
		}
	}
	return nil
}

// watch adds a watch on a folder. A folder whose inode is watched already
// under another path (a symlink or bind mount to another memory folder)
// would have its events named by that path: it cannot be followed.
func (f *liveFollower) watch(abs string) error {
	if err := f.w.Add(abs); err != nil {
		if !missing(err) {
			return &errUnfollowable{fmt.Sprintf("cannot watch %s: %v", abs, err)}
		}
		return err
	}
	if !slices.Contains(f.w.WatchList(), abs) {
		return &errUnfollowable{abs + " is watched already under another path"}
	}
	return nil
}

// missing says whether err means the path is not there (or not a folder).
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// scanLeaf watches a memory folder and lists its record files; a missing
// folder has none.
func (f *liveFollower) scanLeaf(leaf int) ([]string, error) {
	abs := f.leafAbs[leaf]
	err := f.watch(abs)
	if err != nil && !missing(err) {
		return nil, err
	}
	// Listed after the watch is in place: a file made after the listing is
	// in the events. A folder made between the failed watch and the listing
	// is marked by its parent's event and scanned again.
	return mdstore.RecordNames(abs)
}

// close ends the watcher and its goroutine and removes the barrier.
func (f *liveFollower) close() error {
	err := f.w.Close()
	<-f.done
	if f.barrierDir != "" {
		os.RemoveAll(f.barrierDir)
	}
	return err
}
