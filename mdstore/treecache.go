package mdstore

import (
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// The tree cache keeps the content of large git tree objects (a folder of
// thousands of records, such as memory/inbox/) in .curator/.cache/trees/,
// named by the tree's hash: a plain file read instead of inflating the
// object from a pack. Content is used only if it hashes to its name, so a
// stale or damaged cache is never trusted, only slower.

// cachedTreeMin is the size (bytes of tree content, about 40 per entry)
// from which a tree is cached.
const cachedTreeMin = 32 << 10

type treeCache struct{ dir string }

func (c treeCache) path(h plumbing.Hash) string { return filepath.Join(c.dir, h.String()) }

// get returns the content of tree h if the cache holds it intact.
func (c treeCache) get(h plumbing.Hash) ([]byte, bool) {
	if c.dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(c.path(h))
	if err != nil || plumbing.ComputeHash(plumbing.TreeObject, data) != h {
		return nil, false
	}
	return data, true
}

// put stores a large tree's content (best effort: a cache that cannot be
// written only costs speed).
func (c treeCache) put(h plumbing.Hash, content []byte) {
	if c.dir == "" || len(content) < cachedTreeMin {
		return
	}
	_ = writeFile(c.path(h), content, 0o644, false)
}

// drop removes a tree that a commit replaced.
func (c treeCache) drop(h plumbing.Hash) {
	if c.dir != "" {
		os.Remove(c.path(h))
	}
}
