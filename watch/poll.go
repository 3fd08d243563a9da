package watch

import (
	"io/fs"
	"path/filepath"
	"time"
)

// entry is what polling remembers of one file or folder.
type entry struct {
	size  int64
	mtime time.Time
	mode  fs.FileMode
	inode uint64 // 0 where the system has none
}

// changed says whether e differs from old in a way worth reporting. A
// folder's size and time change with its entries, which are reported
// themselves, so only its mode and identity count.
func (e entry) changed(old entry) bool {
	if e.mode != old.mode || e.inode != old.inode {
		return true
	}
	if e.mode.IsDir() {
		return false
	}
	return e.size != old.size || !e.mtime.Equal(old.mtime)
}

// walkInto records every file and folder under root (skipped folders left
// out) in snap and returns how many of them are folders snap did not hold
// yet (a root under another root is walked twice, its folders counted
// once). Entries that cannot be read are left out, as if gone.
func (w *Watcher) walkInto(root string, snap map[string]entry) (folders int) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // gone or unreadable: its entries are not listed
		}
		if d.IsDir() && p != root && w.skips(p) {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return nil // gone meanwhile
		}
		old, seen := snap[p]
		snap[p] = entry{size: info.Size(), mtime: info.ModTime(), mode: info.Mode(), inode: inode(info)}
		if d.IsDir() && (!seen || !old.mode.IsDir()) {
			folders++
		}
		return nil
	})
	return folders
}

// scan walks every root, compares with the last snapshot and puts what
// changed, appeared or went into the pending batch, settled at once.
func (w *Watcher) scan() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mode != ModePoll {
		return
	}
	next := make(map[string]entry, len(w.snap))
	dirs := 0
	for _, r := range w.roots {
		dirs += w.walkInto(r, next)
	}
	now := time.Now()
	for p, e := range next {
		if old, ok := w.snap[p]; !ok || e.changed(old) {
			w.pend.add(p, now)
		}
	}
	for p := range w.snap {
		if _, ok := next[p]; !ok {
			w.pend.add(p, now)
		}
	}
	w.snap, w.snapDirs = next, dirs
	w.scanned()
	if !w.pend.empty() {
		w.pend.now = true
	}
}
