package gittree

import (
	"bytes"
	"fmt"
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

// Files calls fn for every file under tree t (zero: none), read through
// o, in git's path order; dir prefixes the paths.
func Files(o *Objects, t plumbing.Hash, dir string, fn func(path string) error) error {
	if t.IsZero() {
		return nil
	}
	b, err := o.ReadType(t, plumbing.TreeObject)
	if err != nil {
		return err
	}
	for {
		var e rawEntry
		var ok bool
		if e, b, ok, err = nextEntry(b, t); err != nil || !ok {
			return err
		}
		p := path.Join(dir, string(e.name))
		if e.dir() {
			err = Files(o, e.hash, p, fn)
		} else {
			err = fn(p)
		}
		if err != nil {
			return err
		}
	}
}

// DiffTrees is Diff of the trees old and nw (either may be zero: an empty
// tree) read as bytes through o: an entry is compared where it lies, no
// entry of an equal folder is read, and only the paths that differ are
// made into strings.
func DiffTrees(o *Objects, old, nw plumbing.Hash, fn func(Change) error) error {
	return diffRaw(o, old, nw, "", fn)
}

func diffRaw(o *Objects, old, nw plumbing.Hash, dir string, fn func(Change) error) error {
	if old == nw {
		return nil
	}
	var ob, nb []byte
	var err error
	if !old.IsZero() {
		if ob, err = o.ReadType(old, plumbing.TreeObject); err != nil {
			return err
		}
	}
	if !nw.IsZero() {
		if nb, err = o.ReadType(nw, plumbing.TreeObject); err != nil {
			return err
		}
	}
	var oe, ne rawEntry
	oOK, nOK := false, false
	if oe, ob, oOK, err = nextEntry(ob, old); err != nil {
		return err
	}
	if ne, nb, nOK, err = nextEntry(nb, nw); err != nil {
		return err
	}
	for oOK || nOK {
		c := 0
		switch {
		case !oOK:
			c = 1
		case !nOK:
			c = -1
		default:
			c = compareRaw(&oe, &ne)
		}
		switch {
		case c < 0:
			err = entryRaw(o, &oe, nil, dir, fn)
		case c > 0:
			err = entryRaw(o, nil, &ne, dir, fn)
		case oe.hash != ne.hash || oe.mode != ne.mode:
			err = entryRaw(o, &oe, &ne, dir, fn)
		}
		if err != nil {
			return err
		}
		if c <= 0 {
			if oe, ob, oOK, err = nextEntry(ob, old); err != nil {
				return err
			}
		}
		if c >= 0 {
			if ne, nb, nOK, err = nextEntry(nb, nw); err != nil {
				return err
			}
		}
	}
	return nil
}

// rawEntry is one entry of a tree object, its name still in the object.
type rawEntry struct {
	name []byte
	mode filemode.FileMode
	hash plumbing.Hash
}

func (e *rawEntry) dir() bool { return e.mode == filemode.Dir }

// nextEntry reads the first entry of the rest b of tree t's object (ok
// false at its end); modes are made canonical as go-git reads them.
func nextEntry(b []byte, t plumbing.Hash) (e rawEntry, rest []byte, ok bool, err error) {
	if len(b) == 0 {
		return e, nil, false, nil
	}
	sp := bytes.IndexByte(b, ' ')
	nul := bytes.IndexByte(b, 0)
	if sp <= 0 || nul < sp+2 || len(b) < nul+21 {
		return e, nil, false, fmt.Errorf("tree %s: %w", t, object.ErrMalformedTree)
	}
	var m uint32
	for _, c := range b[:sp] {
		if c < '0' || c > '7' {
			return e, nil, false, fmt.Errorf("tree %s: %w: malformed mode", t, object.ErrMalformedTree)
		}
		m = m<<3 | uint32(c-'0')
	}
	e.mode = canonicalMode(filemode.FileMode(m))
	e.name = b[sp+1 : nul]
	copy(e.hash[:], b[nul+1:nul+21])
	return e, b[nul+21:], true, nil
}

// canonicalMode is the mode go-git gives a tree entry.
func canonicalMode(m filemode.FileMode) filemode.FileMode {
	switch m & 0o170000 {
	case 0o040000:
		return filemode.Dir
	case 0o100000:
		if m&0o111 != 0 {
			return filemode.Executable
		}
		return filemode.Regular
	case 0o120000:
		return filemode.Symlink
	default:
		return filemode.Submodule
	}
}

// compareRaw orders two entries as compare does.
func compareRaw(a, b *rawEntry) int {
	n := min(len(a.name), len(b.name))
	if c := bytes.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	ac, bc := after(a, n), after(b, n)
	if ac != bc || len(a.name) == len(b.name) {
		return int(ac) - int(bc)
	}
	return strings.Compare(rawKey(a), rawKey(b))
}

// after is the byte of e's order key at n (0 past its end).
func after(e *rawEntry, n int) byte {
	switch {
	case n < len(e.name):
		return e.name[n]
	case e.dir():
		return '/'
	}
	return 0
}

func rawKey(e *rawEntry) string {
	if e.dir() {
		return string(e.name) + "/"
	}
	return string(e.name)
}

func entryRaw(o *Objects, oe, ne *rawEntry, dir string, fn func(Change) error) error {
	name := oe
	if name == nil {
		name = ne
	}
	p := path.Join(dir, string(name.name))
	oDir, nDir := oe != nil && oe.dir(), ne != nil && ne.dir()
	if oDir || nDir {
		var ot, nt plumbing.Hash
		if oDir {
			ot = oe.hash
		}
		if nDir {
			nt = ne.hash
		}
		if err := diffRaw(o, ot, nt, p, fn); err != nil {
			return err
		}
	}
	c := Change{Path: p}
	if oe != nil && !oDir {
		c.Old, c.OldMode = oe.hash, oe.mode
	}
	if ne != nil && !nDir {
		c.New, c.NewMode = ne.hash, ne.mode
	}
	if c.Old.IsZero() && c.New.IsZero() {
		return nil
	}
	return fn(c)
}

// Lookup is the hash of the folder at path p (slash-separated) under tree
// t, read through o (zero when there is no such folder, or t is zero).
func Lookup(o *Objects, t plumbing.Hash, p string) (plumbing.Hash, error) {
	for _, name := range strings.Split(p, "/") {
		if t.IsZero() || name == "" {
			continue
		}
		b, err := o.ReadType(t, plumbing.TreeObject)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		next := plumbing.ZeroHash
		for {
			var e rawEntry
			var ok bool
			if e, b, ok, err = nextEntry(b, t); err != nil {
				return plumbing.ZeroHash, err
			}
			if !ok {
				break
			}
			if e.dir() && string(e.name) == name {
				next = e.hash
				break
			}
		}
		t = next
	}
	return t, nil
}
