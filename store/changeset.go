package store

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/internal/safepath"
)

// Change is one file change of a run. Paths are store-relative, with slashes.
type Change struct {
	// Path is the file written or deleted.
	Path string
	// From, when set, is a file that the change moves to Path: it is removed
	// once Path holds Data.
	From string
	// Data is the new content of Path (ignored when Delete is set).
	Data []byte
	// Delete removes Path.
	Delete bool
	// Root means Path is relative to the git work tree's root rather than
	// to the store (sync merges the files around the store too).
	Root bool
}

// Changeset is every file change of one run, applied and committed together.
type Changeset struct {
	Changes []Change
}

// Write records new content for a file.
func (c *Changeset) Write(p string, data []byte) {
	c.Changes = append(c.Changes, Change{Path: p, Data: data})
}

// Move records a file moved from one path to another with new content.
func (c *Changeset) Move(from, to string, data []byte) {
	if from == to {
		c.Write(to, data)
		return
	}
	c.Changes = append(c.Changes, Change{Path: to, From: from, Data: data})
}

// WriteRoot records new content for a file outside the store; p is
// relative to the git work tree's root.
func (c *Changeset) WriteRoot(p string, data []byte) {
	c.Changes = append(c.Changes, Change{Path: p, Data: data, Root: true})
}

// DeleteRoot records a removed file outside the store; p is relative to the
// git work tree's root.
func (c *Changeset) DeleteRoot(p string) {
	c.Changes = append(c.Changes, Change{Path: p, Delete: true, Root: true})
}

// Delete records a removed file.
func (c *Changeset) Delete(p string) {
	c.Changes = append(c.Changes, Change{Path: p, Delete: true})
}

// Empty reports whether the changeset changes nothing.
func (c *Changeset) Empty() bool { return c == nil || len(c.Changes) == 0 }

// Paths returns every path the changeset touches, sorted.
func (c *Changeset) Paths() []string {
	seen := map[string]bool{}
	for _, ch := range c.Changes {
		seen[ch.Path] = true
		if ch.From != "" {
			seen[ch.From] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// apply makes the changes on disk. It is idempotent, so a journal can be
// replayed after a crash: writing the same content again and removing a file
// that is already gone are no-ops.
func (s *Store) apply(c *Changeset) error {
	checked := map[string]bool{}
	root := ""
	for _, ch := range c.Changes {
		if err := checkRel(ch.Path); err != nil {
			return err
		}
		top := s.Dir
		if ch.Root {
			if root == "" {
				r, err := s.OpenRepo()
				if err != nil {
					return err
				}
				root = r.Root()
			}
			top = root
		} else {
			s.noteWritten(ch.Path)
			if ch.From != "" {
				s.noteWritten(ch.From)
			}
		}
		target := filepath.Join(top, filepath.FromSlash(ch.Path))
		if dir := path.Dir(target); !checked[dir] {
			if err := safepath.Inside(top, dir); err != nil {
				return err
			}
			checked[dir] = true
		}
		if ch.Delete {
			if err := os.Remove(target); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			if err := laterDirs(filepath.Dir(target)); err != nil {
				return err
			}
			continue
		}
		if ch.From != "" {
			moved, err := moveInPlace(s.Path(ch.From), target, ch.Data)
			if err != nil {
				return err
			}
			if moved {
				continue
			}
		}
		if cur, err := os.ReadFile(target); err != nil || string(cur) != string(ch.Data) {
			if err := writeFile(target, ch.Data, 0o644, false); err != nil {
				return err
			}
		}
		if ch.From != "" {
			if err := os.Remove(s.Path(ch.From)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			if err := laterDirs(filepath.Dir(s.Path(ch.From))); err != nil {
				return err
			}
		}
	}
	return nil
}

// moveInPlace moves a record by renaming it and then rewriting its content
// in place, so a move creates no new inode: creating files is the dominant
// cost of a large run on many file systems. A crash in between is repaired
// by replaying the journal, which holds the full new content. It reports
// false when src is gone (a replay after the move), leaving the content
// check to the caller.
func moveInPlace(src, dst string, data []byte) (bool, error) {
	fi, err := os.Lstat(src)
	if errors.Is(err, os.ErrNotExist) || (err == nil && !fi.Mode().IsRegular()) {
		return false, nil // a symlink is replaced by a file, never written through
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, err
	}
	if err := os.Rename(src, dst); err != nil {
		return false, err
	}
	f, err := openNoFollow(dst)
	if err != nil {
		return false, err
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		f.Close()
		return false, err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > int64(len(data)) {
		err = f.Truncate(int64(len(data)))
		if err != nil {
			f.Close()
			return false, err
		}
	}
	if err := durable.Later(f); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Close(); err != nil {
		return false, err
	}
	return true, laterDirs(filepath.Dir(src), filepath.Dir(dst))
}

// laterDirs marks folders whose entries a run changed (see durable.LaterDir).
func laterDirs(dirs ...string) error {
	for i, d := range dirs {
		if i > 0 && d == dirs[i-1] {
			continue
		}
		if err := durable.LaterDir(d); err != nil {
			return err
		}
	}
	return nil
}

// checkRel refuses paths that would leave the store.
func checkRel(p string) error {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || len(p) > 2 && p[:3] == "../" {
		return safepath.ErrOutsideStore
	}
	return nil
}
