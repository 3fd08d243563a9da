package gitcommit

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
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

// trees reads the base trees of an edit and stores the new ones.
type trees struct {
	repo  storer.EncodedObjectStorer // where base trees are read
	out   storer.EncodedObjectStorer // where new trees go
	cache *objectCache
}

// treeChange is one entry of a folder that an edit replaces, adds or removes.
type treeChange struct {
	key  string // the name as git sorts it: folders end in "/"
	name string
	dir  bool
	sub  *treeEdit
	base plumbing.Hash // the folder's tree before the edit (folders only)
	hash plumbing.Hash // the new blob or tree; zero = removed
}

// build applies the edit to base (the content of a git tree object; nil for
// none) and returns the new tree's hash, or the zero hash when the folder
// ends up empty. It works on the tree's bytes: the entries it does not
// change are copied as they are, so a folder of 100,000 files costs a copy,
// not 100,000 decoded entries. Only the folders on changed paths are read
// and rewritten.
func (t *treeEdit) build(ts trees, path string, base []byte) (plumbing.Hash, error) {
	changes := make([]treeChange, 0, len(t.files)+len(t.dirs))
	for name, sub := range t.dirs {
		if _, isFile := t.files[name]; !isFile {
			changes = append(changes, treeChange{key: name + "/", name: name, dir: true, sub: sub})
		}
	}
	for name, h := range t.files {
		changes = append(changes, treeChange{key: name, name: name, hash: h})
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].key < changes[j].key })
	edited := make(map[string]int, len(changes))
	for i, c := range changes {
		edited[c.name] = i
	}
	// The trees of the edited folders, then the folders' new trees.
	var err error
	if len(t.dirs) > 0 {
		err = eachTreeEntry(base, func(e treeEntry) {
			if i, ok := edited[string(e.name)]; ok && changes[i].dir && e.dir {
				copy(changes[i].base[:], e.hash)
			}
		})
		if err != nil {
			return plumbing.ZeroHash, err
		}
	}
	for i := range changes {
		c := &changes[i]
		if !c.dir {
			continue
		}
		sub := path + c.name
		var subBase []byte
		if !c.base.IsZero() {
			if subBase, err = ts.read(sub, c.base); err != nil {
				return plumbing.ZeroHash, err
			}
		}
		if c.hash, err = c.sub.build(ts, sub+"/", subBase); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	// Merge the untouched entries (already in git's order) with the changes.
	out := make([]byte, 0, len(base)+64*len(changes))
	next := 0
	var key []byte
	err = eachTreeEntry(base, func(e treeEntry) {
		if _, ok := edited[string(e.name)]; ok {
			return // replaced or removed
		}
		key = append(key[:0], e.name...)
		if e.dir {
			key = append(key, '/')
		}
		for ; next < len(changes) && changes[next].key < string(key); next++ {
			out = changes[next].append(out)
		}
		out = append(out, e.raw...)
	})
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for ; next < len(changes); next++ {
		out = changes[next].append(out)
	}
	if len(out) == 0 {
		ts.cache.folder(strings.TrimSuffix(path, "/"), plumbing.ZeroHash, nil)
		return plumbing.ZeroHash, nil
	}
	return ts.write(strings.TrimSuffix(path, "/"), out)
}

// treeEntry is one entry of a tree object's content, as slices of it.
type treeEntry struct {
	name, hash, raw []byte
	dir             bool
}

// eachTreeEntry calls f for every entry of a tree object's content
// ("<mode> <name>\x00<20-byte hash>" repeated).
func eachTreeEntry(data []byte, f func(treeEntry)) error {
	for off := 0; off < len(data); {
		b := data[off:]
		sp := bytes.IndexByte(b, ' ')
		nul := bytes.IndexByte(b, 0)
		if sp < 0 || nul < sp || nul+21 > len(b) {
			return fmt.Errorf("damaged git tree object at byte %d", off)
		}
		end := nul + 21
		f(treeEntry{name: b[sp+1 : nul], hash: b[nul+1 : end], raw: b[:end], dir: isTreeMode(b[:sp])})
		off += end
	}
	return nil
}

// append adds the change's new entry to a tree's content (nothing when the
// entry is removed).
func (c treeChange) append(b []byte) []byte {
	if c.hash.IsZero() {
		return b
	}
	if c.dir {
		b = append(b, "40000 "...)
	} else {
		b = append(b, "100644 "...)
	}
	b = append(b, c.name...)
	b = append(b, 0)
	return append(b, c.hash[:]...)
}

// read returns the content of tree h, the folder at path, from the object
// cache when it holds it.
func (ts trees) read(path string, h plumbing.Hash) ([]byte, error) {
	data, ok := ts.cache.get(plumbing.TreeObject, h)
	if !ok {
		var err error
		if data, err = readObject(ts.repo, plumbing.TreeObject, h); err != nil {
			return nil, err
		}
	}
	ts.cache.folder(path, h, data)
	return data, nil
}

// write stores the tree of the folder at path and returns its hash.
func (ts trees) write(path string, content []byte) (plumbing.Hash, error) {
	h, err := writeTreeObject(ts.out, content)
	if err == nil {
		ts.cache.folder(path, h, content)
	}
	return h, err
}

// readObject reads an object's content from the repository.
func readObject(repo storer.EncodedObjectStorer, t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	obj, err := repo.EncodedObject(t, h)
	if err != nil {
		return nil, fmt.Errorf("reading git %s %s: %w", t, h, err)
	}
	data, err := readObjectContent(obj)
	if err != nil {
		return nil, fmt.Errorf("reading git %s %s: %w", t, h, err)
	}
	return data, nil
}

func readObjectContent(obj plumbing.EncodedObject) ([]byte, error) {
	r, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// writeTreeObject stores a tree object with this content and returns its hash.
func writeTreeObject(out storer.EncodedObjectStorer, content []byte) (plumbing.Hash, error) {
	return out.SetEncodedObject(&rawObject{typ: plumbing.TreeObject, data: content, hash: objectHash(plumbing.TreeObject, content)})
}

// isTreeMode reports whether a tree entry's octal mode is a folder, as git
// reads it ("40000", or "040000" as some tools wrote it).
func isTreeMode(m []byte) bool {
	v := 0
	for _, c := range m {
		if c < '0' || c > '7' {
			return false
		}
		v = v<<3 | int(c-'0')
	}
	return v&0o170000 == 0o040000
}
