package mdstore

import (
	"encoding/binary"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/memory"
)

// The tree cache keeps the entries of large git trees (a folder of
// thousands of records, such as memory/inbox/) in .curator/.cache/trees/,
// named by the tree's hash. Reading a large tree back from a pack file is
// the costliest part of an hourly commit on a big store; the cache makes it
// a file read. An entry is used only if its entries hash to its name, so a
// stale or damaged cache is never trusted, only slower.

// cachedTreeMin is the number of entries from which a tree is cached.
const cachedTreeMin = 1000

type treeCache struct{ dir string }

func (c treeCache) path(h plumbing.Hash) string { return filepath.Join(c.dir, h.String()) }

// entries returns the entries of tree h, from the cache when it holds them.
func (c treeCache) entries(repo storer.EncodedObjectStorer, h plumbing.Hash) ([]object.TreeEntry, error) {
	if c.dir != "" {
		if data, err := os.ReadFile(c.path(h)); err == nil {
			if es, ok := decodeTreeEntries(data); ok && treeHash(es) == h {
				return es, nil
			}
		}
	}
	t, err := object.GetTree(repo, h)
	if err != nil {
		return nil, err
	}
	if len(t.Entries) >= cachedTreeMin {
		c.put(h, t.Entries)
	}
	return t.Entries, nil
}

// put stores a large tree's entries (best effort: a cache that cannot be
// written only costs speed).
func (c treeCache) put(h plumbing.Hash, es []object.TreeEntry) {
	if c.dir == "" || len(es) < cachedTreeMin {
		return
	}
	_ = writeFile(c.path(h), encodeTreeEntries(es), 0o644, false)
}

// drop removes a tree that a commit replaced.
func (c treeCache) drop(h plumbing.Hash) {
	if c.dir != "" {
		os.Remove(c.path(h))
	}
}

func encodeTreeEntries(es []object.TreeEntry) []byte {
	var b []byte
	for _, e := range es {
		b = binary.BigEndian.AppendUint32(b, uint32(e.Mode))
		b = append(b, e.Hash[:]...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(e.Name)))
		b = append(b, e.Name...)
	}
	return b
}

func decodeTreeEntries(b []byte) ([]object.TreeEntry, bool) {
	var es []object.TreeEntry
	for len(b) > 0 {
		if len(b) < 26 {
			return nil, false
		}
		var e object.TreeEntry
		e.Mode = filemode.FileMode(binary.BigEndian.Uint32(b))
		copy(e.Hash[:], b[4:24])
		n := int(binary.BigEndian.Uint16(b[24:26]))
		if len(b) < 26+n {
			return nil, false
		}
		e.Name = string(b[26 : 26+n])
		es = append(es, e)
		b = b[26+n:]
	}
	return es, true
}

// treeHash is the git hash of a tree with these entries, in this order.
func treeHash(es []object.TreeEntry) plumbing.Hash {
	obj := memory.NewStorage().NewEncodedObject()
	if err := (&object.Tree{Entries: es}).Encode(obj); err != nil {
		return plumbing.ZeroHash
	}
	return obj.Hash()
}
