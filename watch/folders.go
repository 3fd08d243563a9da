package watch

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
)

// The folders watched by notifications: one watch per folder, added as
// folders appear and dropped as they go. The caller holds w.mu.

// watchTree adds a watch to every folder under top not yet watched (top
// included), and with report puts every file and folder found into the
// pending batch. A folder's watch is added before its entries are listed,
// so an entry created meanwhile is reported by the listing or by an event.
// It returns the error that refused a watch for lack of room (isLimit), or
// the error that made top itself unreadable; other folders that cannot be
// watched become notices.
//
// A folder's entries are read in the order the system gives them and
// only its subfolders are sorted: a memory folder holds a hundred
// thousand files, which matter here only when reported.
func (w *Watcher) watchTree(top string, report bool, now time.Time) error {
	fi, err := os.Lstat(top)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // gone meanwhile
	case err != nil:
		return err
	case !fi.IsDir():
		if report {
			w.pend.add(top, now)
		}
		return nil
	}
	return w.watchFolder(top, top, report, now)
}

// watchFolder is watchTree's step for the folder p under top.
func (w *Watcher) watchFolder(top, p string, report bool, now time.Time) error {
	if p != top && w.skips(p) {
		w.skipped[p] = struct{}{}
		return nil
	}
	if _, ok := w.folders[p]; !ok {
		switch err := w.addWatch(p); {
		case err == nil:
			w.folders[p] = struct{}{}
		case isLimit(err):
			return err
		case errors.Is(err, fs.ErrNotExist):
			return nil
		default:
			w.note(Notice{Kind: NoticeUnwatched, Message: "cannot watch " + p + ": " + err.Error(), Path: p, Err: err})
			return nil
		}
	}
	if report {
		w.pend.add(p, now)
	}
	subfolders, err := w.readFolder(p, report, now)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// The subfolders named before the error are watched all the same.
		w.note(Notice{Kind: NoticeError, Message: "cannot read " + p + ": " + err.Error(), Path: p, Err: err})
	}
	slices.Sort(subfolders)
	for _, name := range subfolders {
		if err := w.watchFolder(top, filepath.Join(p, name), report, now); err != nil {
			return err
		}
	}
	return nil
}

// readFolder lists the folder p: the names of its subfolders, and with
// report its other entries put into the pending batch.
func (w *Watcher) readFolder(p string, report bool, now time.Time) ([]string, error) {
	var subfolders []string
	err := listFolder(p, report, func(name string, folder bool) {
		if folder {
			subfolders = append(subfolders, name)
		} else {
			w.pend.add(filepath.Join(p, name), now)
		}
	})
	return subfolders, err
}

// drop forgets the folder p and the folders under it, reporting them; p
// was removed or renamed away.
func (w *Watcher) drop(p string, now time.Time) {
	if _, ok := w.folders[p]; !ok {
		delete(w.skipped, p)
		return
	}
	for f := range w.folders {
		if within(f, p) {
			delete(w.folders, f)
			w.release(f)
			w.pend.add(f, now)
		}
	}
	for f := range w.skipped {
		if within(f, p) {
			delete(w.skipped, f)
		}
	}
}

// unwatch drops the watches under root that lie under no other root.
func (w *Watcher) unwatch(root string) {
	for f := range w.folders {
		if within(f, root) && !w.inRoots(f) {
			delete(w.folders, f)
			w.release(f)
		}
	}
	for f := range w.skipped {
		if within(f, root) && !w.inRoots(f) {
			delete(w.skipped, f)
		}
	}
}

// event takes one notification into the pending batch.
func (w *Watcher) event(ev fsnotify.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fs == nil {
		return // polling since
	}
	p, now := filepath.Clean(ev.Name), time.Now()
	if w.sync.dir != "" && within(p, w.sync.dir) {
		w.markerSeen(p, ev)
		return
	}
	w.awaited(p, now)
	if w.fs == nil || !w.inRoots(p) {
		return // polling since, or in a lookout, or under a root removed since
	}
	_, wasSkipped := w.skipped[p]
	gone := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
	if gone {
		w.drop(p, now)
		if slices.Contains(w.roots, p) {
			w.pend.add(p, now)
			w.placeAgain(p, now) // watched again if made again already, else waited for
			return
		}
	}
	if !gone && !ev.Has(fsnotify.Create) {
		// a write or a chmod changes no folder
		if !wasSkipped {
			w.pend.add(p, now)
		}
		return
	}
	info, err := os.Lstat(p)
	if err != nil {
		if !wasSkipped {
			w.pend.add(p, now)
		}
		return
	}
	if info.IsDir() {
		if _, ok := w.folders[p]; !ok {
			if w.skips(p) {
				w.skipped[p] = struct{}{}
				return
			}
			if err := w.watchTree(p, true, now); isLimit(err) {
				w.fallBack(err)
				return
			}
		}
	}
	w.pend.add(p, now)
}

// fault takes one error of the notifications.
func (w *Watcher) fault(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fs == nil {
		return
	}
	switch {
	case errors.Is(err, fsnotify.ErrEventOverflow):
		w.note(Notice{Kind: NoticeOverflow, Err: err, Message: "the system's event queue overflowed and changes were lost: " +
			"every watched folder is rescanned" + overflowHint()})
		w.syncAll()
		if err := w.resync(); isLimit(err) {
			w.fallBack(err)
			return
		}
		w.pend.touch(time.Now())
		w.pend.rescan = true
	case isLimit(err):
		w.fallBack(err)
	default:
		w.note(Notice{Kind: NoticeError, Message: "watching: " + err.Error(), Err: err})
	}
}

// resync brings the watches in line with the folders on disk after events
// were lost: new folders get a watch, gone ones are dropped, roots gone
// are waited for and roots back are watched.
func (w *Watcher) resync() error {
	for f := range w.folders {
		if info, err := os.Lstat(f); err != nil || !info.IsDir() {
			delete(w.folders, f)
			w.release(f)
		}
	}
	for _, r := range w.roots {
		if err := w.place(r, false, time.Now()); err != nil {
			return err
		}
	}
	return nil
}

// fallBack switches to polling every opts.Fallback because the system
// refused a watch (cause), says so, and asks for a rescan.
func (w *Watcher) fallBack(cause error) {
	watched := len(w.folders)
	w.syncAll()
	w.closeWatches()
	w.mode, w.every = ModePoll, w.opts.Fallback
	w.snap, w.snapDirs = make(map[string]entry), 0
	for _, r := range w.roots {
		w.snapDirs += w.walkInto(r, w.snap)
	}
	w.note(Notice{Kind: NoticeFallback, Message: limitMessage(cause, watched, w.every), Err: cause})
	w.pend.touch(time.Now())
	w.pend.rescan, w.pend.now = true, true
}
