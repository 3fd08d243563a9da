package live

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/watch"
)

// The follower of a live listing: a watch.Watcher on the store's memory
// folder, without debounce, whose batches are handed to a function that
// marks what they name: a record file as dirty, a folder as to be scanned
// again. Nothing is read there; the listing reads what is marked when it
// is asked. Folders below memory other than memory/confirmed and the
// memory folders (and folders named like a record) are skipped.
//
// The barrier makes "a change that completed before List is called is in
// its answer" hold: it is the Watcher's Sync, which returns once every
// change made before it has been handed over, so marked.
//
// A folder made, removed or renamed is named by the Watcher (a folder made
// with everything in it), which marks it and its subfolders to be scanned
// again, so a folder replaced under the same name, or moved away and back,
// is listed anew.
//
// When events may have been lost — a Rescan batch (the system's queue
// overflowed), an error of the notifications, or a barrier that did not
// pass within barrierWait — the listing reads every file again, as
// ListMemories does. When the Watcher cannot watch a memory folder, or
// falls back to polling (the inotify limit is reached), the store cannot
// be followed: the listing is ListMemories from then on.

// barrierWait bounds the wait for the barrier.
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
	w    *watch.Watcher
	stop context.CancelFunc
	done chan struct{} // the Watcher's Run has ended

	leafAbs []string            // liveLeaves, absolute
	leafOf  map[string]int      // absolute folder → leaf
	folders map[string]leafMask // absolute folder → the leaves its events concern

	mu           sync.Mutex
	marks        liveMarks
	unfollowable string // why the Watcher cannot follow the store ("" while it can)
}

// startFollower starts a Watcher on the store's memory folders and passes
// a first barrier. The error says why the store cannot be followed.
func startFollower(dir string) (*liveFollower, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	f := &liveFollower{
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
	memory := filepath.Join(dir, "memory")
	f.folders[memory] = all
	f.folders[filepath.Join(memory, "confirmed")] = confirmed
	w, err := watch.New(watch.Options{
		Debounce: watch.NoDebounce,
		Skip:     f.skips,
	})
	if err != nil {
		return nil, fmt.Errorf("cannot open file notifications: %w", err)
	}
	if err := w.Add(memory); err != nil {
		w.Close()
		return nil, fmt.Errorf("cannot watch %s: %w", memory, err)
	}
	f.w = w
	ctx, stop := context.WithCancel(context.Background())
	f.stop = stop
	go func() {
		defer close(f.done)
		_ = w.RunFunc(ctx, f.batch, f.notice)
	}()
	f.barrier()
	if why := f.check(); why != nil {
		f.close()
		return nil, why
	}
	return f, nil
}

// skips says which folders below memory the Watcher leaves alone: all but
// memory/confirmed, the memory folders, and a folder named like a record
// (which ListMemories reports as not a regular file).
func (f *liveFollower) skips(dir string) bool {
	_, ok := f.folders[dir]
	return !ok && !mdstore.IsRecordName(filepath.Base(dir))
}

// batch marks what a batch of the Watcher names.
func (f *liveFollower) batch(b watch.Batch) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b.Rescan && f.marks.lost == nil {
		f.marks.lost = errors.New("file notifications: events were lost")
	}
	for _, name := range b.Paths {
		if m, ok := f.folders[name]; ok {
			f.marks.rescan |= m
			continue
		}
		i := strings.LastIndexByte(name, filepath.Separator)
		if i < 0 {
			continue
		}
		if leaf, ok := f.leafOf[name[:i]]; ok && mdstore.IsRecordName(name[i+1:]) {
			f.marks.dirty[liveLeaves[leaf].rel+"/"+name[i+1:]] = struct{}{}
		}
	}
}

// notice takes what the Watcher says about the watching: events lost, a
// folder it cannot watch, or polling instead of notifications (then the
// Watcher is stopped: the listing reads the files itself).
func (f *liveFollower) notice(n watch.Notice) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch n.Kind {
	case watch.NoticeFallback, watch.NoticeUnwatched:
		if f.unfollowable == "" {
			f.unfollowable = n.Message
		}
		if n.Kind == watch.NoticeFallback {
			f.stop()
		}
	case watch.NoticeError:
		if n.Path != "" {
			return // a folder that cannot be read: its listing says so
		}
	}
	if f.marks.lost == nil {
		err := n.Err
		if err == nil {
			err = errors.New(n.Message)
		}
		f.marks.lost = fmt.Errorf("file notifications: %w", err)
	}
}

// lose records that events may have been lost.
func (f *liveFollower) lose(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.marks.lost == nil {
		f.marks.lost = err
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

// barrier returns once every change that completed before it was called
// has been marked, or events were lost (then the marks say so).
func (f *liveFollower) barrier() {
	f.mu.Lock()
	lost := f.marks.lost != nil
	f.mu.Unlock()
	if lost {
		return // everything is read again anyway
	}
	ctx, cancel := context.WithTimeout(context.Background(), barrierWait)
	defer cancel()
	if err := f.w.Sync(ctx); err != nil {
		f.lose(fmt.Errorf("barrier: %w", err))
	}
}

// check says why the store cannot be followed, or nil.
func (f *liveFollower) check() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.unfollowable != "" {
		return &errUnfollowable{f.unfollowable}
	}
	return nil
}

// scanLeaf lists a memory folder's record files; a missing folder has
// none. A memory folder that is a link, or another memory folder under a
// second name (a bind mount), is not followed: the Watcher does not
// descend into links, and the system names a folder's events by one of
// its names only.
func (f *liveFollower) scanLeaf(leaf int) ([]string, error) {
	if err := f.checkLeaf(leaf); err != nil {
		return nil, err
	}
	return mdstore.RecordNames(f.leafAbs[leaf])
}

// checkLeaf refuses a memory folder that scanLeaf would refuse, without
// listing it.
func (f *liveFollower) checkLeaf(leaf int) error {
	if err := f.check(); err != nil {
		return err
	}
	abs := f.leafAbs[leaf]
	fi, err := os.Lstat(abs)
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if target, err := os.Stat(abs); err == nil && target.IsDir() {
			return &errUnfollowable{abs + " is a link to a folder, whose changes are not followed"}
		}
	}
	if err == nil && fi.IsDir() {
		for other, o := range f.leafAbs {
			if other == leaf {
				continue
			}
			if ofi, err := os.Lstat(o); err == nil && os.SameFile(fi, ofi) {
				return &errUnfollowable{abs + " is " + o + " under another name"}
			}
		}
	}
	return nil
}

// close stops the Watcher, which removes its sync folder.
func (f *liveFollower) close() error {
	f.stop()
	<-f.done
	return f.w.Close()
}
