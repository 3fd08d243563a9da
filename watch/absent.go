package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Roots that are absent, not yet made or removed since, are waited for
// with notifications: the nearest existing folder above the root (its
// lookout) is watched alone, not recursively, and of its events only those
// on the way to the root count: the root itself, or one of the missing
// folders above it, made, removed or renamed. The lookout moves down as
// those folders appear and up as they go; once the root is a folder it is
// watched again, recursively, and the lookout is let go. The lookout is
// not one of the folders of the watched trees: Folders leaves it out and
// nothing else in it is reported. It is one watch (with kqueue, one open
// file for the folder and one for each file in it). The caller holds w.mu.

// place watches root as it is now: recursively when it is a folder, else
// through a lookout until it is one. A root that is found missing and then
// there, or was waited for before, is reported with everything in it, as a
// folder created under a root is; with report, a root already there is
// too. It returns the error that refused a watch for lack of room
// (isLimit), or the error that made the root unreadable or the lookout
// impossible to watch.
func (w *Watcher) place(root string, report bool, now time.Time) error {
	if _, waited := w.lookouts[root]; waited {
		report = true
	}
	for {
		if isFolder(root) {
			if err := w.watchTree(root, report, now); err != nil {
				return err
			}
			if _, ok := w.folders[root]; ok || isFolder(root) {
				// Watched, or there but refused its watch, which
				// watchTree has said.
				w.unlook(root)
				return nil
			}
		}
		// From here on the root is missing: when it appears, it is new.
		report = true
		dir, err := lookout(root)
		if err != nil {
			return err
		}
		if err := w.addWatch(dir); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // gone meanwhile: look further up
			}
			return err
		}
		old, had := w.lookouts[root]
		w.lookouts[root] = dir
		if had && old != dir {
			w.release(old)
		}
		w.vanished(dir, now)
		// The lookout's watch is in place: a folder on the way to the root
		// made before it would have no event, so look for one now.
		if next := towards(dir, root); !isFolder(next) {
			return nil
		}
	}
}

// placeAgain places root after a change, reporting what the change made;
// a watch refused for lack of room makes the Watcher poll, other failures
// become notices.
func (w *Watcher) placeAgain(root string, now time.Time) {
	switch err := w.place(root, true, now); {
	case err == nil:
	case isLimit(err):
		w.fallBack(err)
	default:
		w.note(Notice{Kind: NoticeUnwatched, Message: "cannot watch " + root + ": " + err.Error(), Path: root, Err: err})
	}
}

// awaited takes an event at p for the roots waited for: p is one of them
// or a folder above one, so the root may be there now.
func (w *Watcher) awaited(p string, now time.Time) {
	var roots []string
	for root := range w.lookouts {
		if within(root, p) {
			roots = append(roots, root)
		}
	}
	slices.Sort(roots)
	for _, root := range roots {
		if w.fs == nil {
			return // polling since
		}
		if _, ok := w.lookouts[root]; ok {
			w.placeAgain(root, now)
		}
	}
}

// vanished takes as removed the roots just below dir, a lookout, that are
// watched but no longer folders. Their removal may have no event: a
// folder's own removal is left out of the notifications when the folder
// above it is watched, as the lookout may have been since just after.
func (w *Watcher) vanished(dir string, now time.Time) {
	for _, root := range slices.Clone(w.roots) {
		if _, ok := w.folders[root]; !ok || filepath.Dir(root) != dir || isFolder(root) {
			continue
		}
		w.drop(root, now)
		w.pend.add(root, now)
		w.placeAgain(root, now)
	}
}

// unlook lets go of root's lookout, if it has one.
func (w *Watcher) unlook(root string) {
	if dir, ok := w.lookouts[root]; ok {
		delete(w.lookouts, root)
		w.release(dir)
	}
}

// release removes the watch on dir unless dir is still a watched folder or
// a lookout. The system may have dropped the watch already.
func (w *Watcher) release(dir string) {
	if _, ok := w.folders[dir]; ok || w.fs == nil {
		return
	}
	for _, d := range w.lookouts {
		if d == dir {
			return
		}
	}
	_ = w.fs.Remove(dir)
}

// lookout is the nearest existing folder above root.
func lookout(root string) (string, error) {
	for dir := filepath.Dir(root); ; {
		if isFolder(dir) {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no folder above %s exists", root)
		}
		dir = up
	}
}

// towards is the folder just below dir on the way down to root, which lies
// under dir.
func towards(dir, root string) string {
	p := root
	for up := filepath.Dir(p); up != dir && up != p; up = filepath.Dir(p) {
		p = up
	}
	return p
}

// isFolder says whether p is a folder now.
func isFolder(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
