package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Sync, the ordered barrier: it returns once every change made in the
// watched trees before it was called has been handed over (see Sync).
//
// With notifications, Sync renames a marker file in a folder of the
// Watcher's own (the sync folder, made in the system's temporary folder at
// the first Sync and named by the process, so that watching a tree changes
// nothing in it and a folder a killed process left is removed by the next)
// and waits
// for that rename's event. inotify queues the events of all of a watcher's
// folders in the order the changes happen (an event is queued by the
// system call that makes the change, before it returns), and fsnotify and
// Run pass them on in that order, an overflow too. So when the marker's
// event is read, every change made before Sync was called has been read
// too, and the pending batch is settled at once and handed over. A rename
// makes no inode and costs some microseconds; each new name is unique, so
// a late event of an earlier Sync is not taken for this one's.
//
// When events are lost (the queue overflowed, the Watcher fell back to
// polling), the marker's event may be among them: the Syncs waiting are
// released with the Rescan batch, which covers every change. Polling scans
// at once. kqueue and ReadDirectoryChangesW do not keep the order of
// changes across folders: there a Sync asks for a Rescan batch.

// waiter is one Sync waiting.
type waiter struct {
	done chan struct{}
	err  error
}

// release ends the waits of ws with err.
func release(ws []*waiter, err error) {
	for _, wt := range ws {
		wt.err = err
		close(wt.done)
	}
}

// errEnded releases the Syncs of a Watcher that ends.
var errEnded = errors.New("watch: the watcher has ended")

// syncFolder is the folder of the Watcher's own that holds the marker.
type syncFolder struct {
	dir    string // "" until the first Sync
	marker string // the marker file's current path
	seq    uint64
}

// Sync returns once every change made in the watched trees before Sync
// was called has been handed over by Run or RunFunc (received from the
// batches channel, or batch has returned), settling the pending batch at
// once, or once ctx ends (with its error) or the Watcher ends. A Rescan
// batch counts: it covers every change. Call Sync while Run runs, from
// another goroutine than the one that receives the batches.
func (w *Watcher) Sync(ctx context.Context) error {
	wt := &waiter{done: make(chan struct{})}
	w.mu.Lock()
	if w.ended {
		w.mu.Unlock()
		return errEnded
	}
	marker := ""
	switch {
	case w.mode == ModePoll:
		w.polled = append(w.polled, wt)
		w.signal()
	case w.fs == nil || !ordered:
		w.pend.touch(time.Now())
		w.pend.rescan, w.pend.now = true, true
		w.synced = append(w.synced, wt)
		w.signal()
	default:
		var err error
		marker, err = w.mark(wt)
		switch {
		case err == nil:
		case isLimit(err):
			w.fallBack(err)
			w.synced = append(w.synced, wt) // released with the Rescan batch
		default:
			w.mu.Unlock()
			return fmt.Errorf("watch: sync: %w", err)
		}
	}
	w.mu.Unlock()
	select {
	case <-wt.done:
		return wt.err
	case <-ctx.Done():
		w.mu.Lock()
		if w.awaiting[marker] == wt {
			delete(w.awaiting, marker)
		}
		w.mu.Unlock()
		return ctx.Err()
	}
}

// SyncFolder is the folder Sync's marker file is in, in the system's
// temporary folder: "" before the first Sync, while polling and once the
// Watcher has ended.
func (w *Watcher) SyncFolder() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sync.dir
}

// mark renames the marker to a new name and awaits its event for wt. A
// sync folder gone (removed by a cleaner of the temporary folder) is made
// again. The caller holds w.mu.
func (w *Watcher) mark(wt *waiter) (string, error) {
	if w.sync.dir == "" {
		if err := w.newSyncFolder(); err != nil {
			return "", err
		}
	}
	next, err := w.renameMarker(wt)
	if errors.Is(err, fs.ErrNotExist) {
		if err = w.newSyncFolder(); err == nil {
			next, err = w.renameMarker(wt)
		}
	}
	if err != nil {
		return "", err
	}
	w.sync.marker = next
	return next, nil
}

// renameMarker renames the marker to a new name whose event wt awaits.
func (w *Watcher) renameMarker(wt *waiter) (string, error) {
	w.sync.seq++
	next := filepath.Join(w.sync.dir, "s"+strconv.FormatUint(w.sync.seq, 10))
	w.awaiting[next] = wt
	if err := os.Rename(w.sync.marker, next); err != nil {
		delete(w.awaiting, next)
		return "", err
	}
	return next, nil
}

// newSyncFolder makes a new sync folder, watches it and puts the marker
// in it, and lets go of the old one.
func (w *Watcher) newSyncFolder() error {
	if w.sync.dir == "" {
		removeStaleSyncFolders()
	}
	dir, err := os.MkdirTemp("", syncFolderPrefix())
	if err != nil {
		return err
	}
	if err := w.addWatch(dir); err != nil {
		os.RemoveAll(dir)
		return err
	}
	marker := filepath.Join(dir, "s0")
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		_ = w.fs.Remove(dir)
		os.RemoveAll(dir)
		return err
	}
	w.dropSyncFolder()
	w.sync.dir, w.sync.marker = dir, marker
	return nil
}

// dropSyncFolder removes the sync folder and its watch.
func (w *Watcher) dropSyncFolder() {
	if w.sync.dir == "" {
		return
	}
	if w.fs != nil {
		_ = w.fs.Remove(w.sync.dir) // the system may have dropped it
	}
	os.RemoveAll(w.sync.dir)
	w.sync.dir, w.sync.marker = "", ""
}

// markerSeen takes an event in the sync folder: the marker's rename of a Sync
// waiting means that every change before that Sync has been read.
func (w *Watcher) markerSeen(p string, ev fsnotify.Event) {
	if !ev.Has(fsnotify.Create) {
		return
	}
	if wt, ok := w.awaiting[p]; ok {
		delete(w.awaiting, p)
		w.synced = append(w.synced, wt)
	}
}

// syncAll releases every Sync waiting with the next batch: events were
// lost and that batch is a Rescan.
func (w *Watcher) syncAll() {
	for p, wt := range w.awaiting {
		delete(w.awaiting, p)
		w.synced = append(w.synced, wt)
	}
}

// scanned releases the Syncs waiting for a scan with the next batch.
func (w *Watcher) scanned() {
	w.synced = append(w.synced, w.polled...)
	w.polled = nil
}

// scanAsked says whether a Sync waits for a scan.
func (w *Watcher) scanAsked() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.polled) > 0
}

// abandon ends every Sync waiting: the Watcher ends.
func (w *Watcher) abandon() {
	for _, wt := range w.awaiting {
		release([]*waiter{wt}, errEnded)
	}
	clear(w.awaiting)
	release(w.synced, errEnded)
	release(w.polled, errEnded)
	w.synced, w.polled = nil, nil
}
