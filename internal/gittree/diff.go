package gittree

import (
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Change is one file that differs between two trees: its old and new blob
// (zero when the file is absent on that side) and modes.
type Change struct {
	Path             string
	Old, New         plumbing.Hash
	OldMode, NewMode filemode.FileMode
}

// Diff calls fn for every file that differs between old and nw (either may
// be nil: an empty tree), in git's path order. A path that is a file on one
// side and a folder on the other gives the file's removal or addition and
// the folder's files.
func Diff(old, nw *object.Tree, fn func(Change) error) error {
	return diff(old, nw, "", fn)
}

func diff(old, nw *object.Tree, dir string, fn func(Change) error) error {
	if old != nil && nw != nil && old.Hash == nw.Hash {
		return nil
	}
	var oe, ne []object.TreeEntry
	if old != nil {
		oe = old.Entries
	}
	if nw != nil {
		ne = nw.Entries
	}
	for i, j := 0, 0; i < len(oe) || j < len(ne); {
		switch c := compare(oe, ne, i, j); {
		case c < 0:
			if err := entry(old, nw, &oe[i], nil, dir, fn); err != nil {
				return err
			}
			i++
		case c > 0:
			if err := entry(old, nw, nil, &ne[j], dir, fn); err != nil {
				return err
			}
			j++
		default:
			if oe[i].Hash != ne[j].Hash || oe[i].Mode != ne[j].Mode {
				if err := entry(old, nw, &oe[i], &ne[j], dir, fn); err != nil {
					return err
				}
			}
			i, j = i+1, j+1
		}
	}
	return nil
}

// compare orders oe[i] and ne[j] as git orders tree entries (a folder sorts
// as its name with a slash); an exhausted side sorts last.
func compare(oe, ne []object.TreeEntry, i, j int) int {
	switch {
	case i >= len(oe):
		return 1
	case j >= len(ne):
		return -1
	}
	return strings.Compare(orderKey(oe[i]), orderKey(ne[j]))
}

func orderKey(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

func entry(old, nw *object.Tree, o, n *object.TreeEntry, dir string, fn func(Change) error) error {
	name := o
	if name == nil {
		name = n
	}
	p := path.Join(dir, name.Name)
	oDir, nDir := o != nil && o.Mode == filemode.Dir, n != nil && n.Mode == filemode.Dir
	if oDir || nDir {
		var ot, nt *object.Tree
		var err error
		if oDir {
			if ot, err = old.Tree(o.Name); err != nil {
				return err
			}
		}
		if nDir {
			if nt, err = nw.Tree(n.Name); err != nil {
				return err
			}
		}
		if err := diff(ot, nt, p, fn); err != nil {
			return err
		}
	}
	c := Change{Path: p}
	if o != nil && !oDir {
		c.Old, c.OldMode = o.Hash, o.Mode
	}
	if n != nil && !nDir {
		c.New, c.NewMode = n.Hash, n.Mode
	}
	if c.Old.IsZero() && c.New.IsZero() {
		return nil
	}
	return fn(c)
}

// Files calls fn for every file under t, in git's path order.
func Files(t *object.Tree, dir string, fn func(path string, e object.TreeEntry) error) error {
	for _, e := range t.Entries {
		p := path.Join(dir, e.Name)
		if e.Mode == filemode.Dir {
			sub, err := t.Tree(e.Name)
			if err != nil {
				return err
			}
			if err := Files(sub, p, fn); err != nil {
				return err
			}
			continue
		}
		if err := fn(p, e); err != nil {
			return err
		}
	}
	return nil
}
