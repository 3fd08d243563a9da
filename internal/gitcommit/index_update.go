package gitcommit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// readIndex reads the worktree's git index (an empty one when there is
// none yet), refusing a split or sparse index. The caller holds
// index.lock, so it cannot change before the new one replaces it.
func (r *Repo) readIndex() (gitIndex, error) {
	path := filepath.Join(r.gitDir, "index")
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		data, err := encodeIndex(&index.Index{Version: 2})
		return gitIndex{data: data}, err
	}
	if err != nil {
		return gitIndex{}, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return gitIndex{}, err
	}
	if err := checkIndexExtensions(data); err != nil {
		return gitIndex{}, fmt.Errorf("%s: %w", path, err)
	}
	return gitIndex{data: data, written: fi.ModTime()}, nil
}

// gitIndex is the index file's bytes and the time it was written.
type gitIndex struct {
	data    []byte
	written time.Time
}

// writeIndex writes into the index lock the index with the changed paths'
// entries replaced; every other entry (the user's staged work) is kept as
// it is. Not synced here: the commit's one sync makes it durable.
func (r *Repo) writeIndex(il *gitLock, idx gitIndex, changes []Change, blobs map[string]*rawObject) error {
	touched := map[string]bool{}
	for _, ch := range changes {
		touched[r.path(ch, ch.Path)] = true
		if ch.From != "" {
			touched[r.path(ch, ch.From)] = true
		}
	}
	add := make([]*index.Entry, 0, len(blobs))
	for name, b := range blobs {
		e := &index.Entry{Name: name, Hash: b.hash, Mode: filemode.Regular}
		if !indexStat(filepath.Join(r.root, filepath.FromSlash(name)), e) {
			continue // changed again since; git will see it as a change
		}
		add = append(add, e)
	}
	err := il.writeWith(func(w io.Writer) error { return spliceIndexTo(w, idx.data, touched, add, idx.written) }, false)
	if !errors.Is(err, errIndexFormat) {
		return err
	}
	out, err := updateIndexGoGit(idx.data, touched, add, idx.written)
	if err != nil {
		return err
	}
	return il.write(out, false)
}

// updateIndexGoGit edits an index of a version spliceIndex does not read
// (version 4) through go-git's codec.
func updateIndexGoGit(data []byte, drop map[string]bool, add []*index.Entry, written time.Time) ([]byte, error) {
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
		return nil, fmt.Errorf("reading the git index: %w", err)
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if !drop[e.Name] {
			if !e.ModifiedAt.Before(written) {
				e.Size = 0 // racily clean: smudged, as spliceIndexAt does
			}
			kept = append(kept, e)
		}
	}
	idx.Entries = append(kept, add...)
	idx.Cache = nil
	return encodeIndex(idx)
}
