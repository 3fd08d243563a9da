package mdstore

import (
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// treeEdit is the set of changes below one folder of a git tree: a blob hash
// per changed file (zero hash = removed) and an edit per changed sub-folder.
type treeEdit struct {
	files map[string]plumbing.Hash
	dirs  map[string]*treeEdit
}

func (t *treeEdit) set(path string, h plumbing.Hash) {
	dir, rest, found := strings.Cut(path, "/")
	if !found {
		if t.files == nil {
			t.files = map[string]plumbing.Hash{}
		}
		t.files[dir] = h
		return
	}
	if t.dirs == nil {
		t.dirs = map[string]*treeEdit{}
	}
	sub := t.dirs[dir]
	if sub == nil {
		sub = &treeEdit{}
		t.dirs[dir] = sub
	}
	sub.set(rest, h)
}

// build writes the edited tree (reading base from repo, writing new trees to
// out) and returns its hash, or the zero hash when the tree is empty. Only
// the folders on changed paths are read and rewritten.
func (t *treeEdit) build(repo storer.EncodedObjectStorer, out storer.EncodedObjectStorer, cache treeCache, base []object.TreeEntry) (plumbing.Hash, bool, error) {
	entries := make(map[string]object.TreeEntry, len(base)+len(t.files))
	for _, e := range base {
		entries[e.Name] = e
	}
	for name, sub := range t.dirs {
		var subBase []object.TreeEntry
		if e, ok := entries[name]; ok && e.Mode == filemode.Dir {
			es, err := cache.entries(repo, e.Hash)
			if err != nil {
				return plumbing.ZeroHash, false, err
			}
			subBase = es
		}
		h, _, err := sub.build(repo, out, cache, subBase)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if e, ok := entries[name]; ok && e.Hash != h && len(subBase) >= cachedTreeMin {
			cache.drop(e.Hash) // replaced: keep the cache to the trees in use
		}
		if h.IsZero() {
			delete(entries, name)
		} else {
			entries[name] = object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h}
		}
	}
	for name, h := range t.files {
		if h.IsZero() {
			delete(entries, name)
		} else {
			entries[name] = object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h}
		}
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, true, nil
	}
	list := make([]object.TreeEntry, 0, len(entries))
	for _, e := range entries {
		list = append(list, e)
	}
	h, err := writeTree(out, list)
	if err == nil && len(list) >= cachedTreeMin {
		cache.put(h, list)
	}
	return h, false, err
}

// writeTree stores a tree with its entries in git's order (folders sort as
// if their name ended in "/").
func writeTree(out storer.EncodedObjectStorer, list []object.TreeEntry) (plumbing.Hash, error) {
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(list, func(i, j int) bool { return key(list[i]) < key(list[j]) })
	tr := &object.Tree{Entries: list}
	obj := out.NewEncodedObject()
	if err := tr.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return out.SetEncodedObject(obj)
}
