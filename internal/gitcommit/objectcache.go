package gitcommit

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"sort"
	"strconv"

	"github.com/curator-dev/curator/internal/durable"

	"github.com/go-git/go-git/v5/plumbing"
)

// The object cache (a file of the caller's, Options.ObjectCache) holds the last
// commit curator made and, for every folder curator's commits have changed,
// that folder's tree as of the newest such commit. The next commit's base
// (HEAD's tree and the folders on its changed paths) then comes from one
// file read, not from git's packs: go-git loads every pack index in full
// before its first lookup, a cost that grows with the store and its
// history. An object is used only if its content hashes to the hash asked
// for, so a stale or damaged cache is never trusted, only slower.

const objectCacheMagic = "curator-object-cache-1\n"

type objectCache struct {
	file    string
	folders map[string]cachedObject // folder path ("" = the root) → its newest tree
	byHash  map[plumbing.Hash]cachedObject
}

type cachedObject struct {
	typ  plumbing.ObjectType
	hash plumbing.Hash
	data []byte
}

// loadObjectCache reads the cache file (an empty cache when it is missing
// or damaged; file "" is a cache that is never written).
func loadObjectCache(file string) *objectCache {
	c := emptyObjectCache(file)
	if file == "" {
		return c
	}
	data, err := os.ReadFile(file)
	if err != nil || !bytes.HasPrefix(data, []byte(objectCacheMagic)) {
		return c
	}
	b := data[len(objectCacheMagic):]
	for len(b) > 0 {
		// type, hash, path length, path, content length, content
		if len(b) < 1+20+2 {
			return emptyObjectCache(file) // damaged: rewritten by the next save
		}
		o := cachedObject{typ: plumbing.ObjectType(b[0])}
		copy(o.hash[:], b[1:21])
		n := int(binary.BigEndian.Uint16(b[21:23]))
		if len(b) < 23+n+4 {
			return emptyObjectCache(file) // damaged: rewritten by the next save
		}
		path := string(b[23 : 23+n])
		b = b[23+n:]
		m := int(binary.BigEndian.Uint32(b))
		if len(b) < 4+m {
			return emptyObjectCache(file) // damaged: rewritten by the next save
		}
		o.data, b = b[4:4+m], b[4+m:]
		c.byHash[o.hash] = o
		if o.typ == plumbing.TreeObject {
			c.folders[path] = o
		}
	}
	c.file = file
	return c
}

func emptyObjectCache(file string) *objectCache {
	return &objectCache{file: file, folders: map[string]cachedObject{}, byHash: map[plumbing.Hash]cachedObject{}}
}

// get returns the content of object h of type t if the cache holds it intact.
func (c *objectCache) get(t plumbing.ObjectType, h plumbing.Hash) ([]byte, bool) {
	o, ok := c.byHash[h]
	if !ok || o.typ != t || objectHash(t, o.data) != h {
		return nil, false
	}
	return o.data, true
}

// commitTree returns the tree of commit h if the cache holds the commit.
func (c *objectCache) commitTree(h plumbing.Hash) (plumbing.Hash, bool) {
	data, ok := c.get(plumbing.CommitObject, h)
	if !ok || len(data) < 46 || string(data[:5]) != "tree " || data[45] != '\n' {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(string(data[5:45])), true
}

// folder records the tree a folder has after this commit (zero: removed).
func (c *objectCache) folder(path string, h plumbing.Hash, data []byte) {
	if h.IsZero() {
		delete(c.folders, path)
		return
	}
	o := cachedObject{typ: plumbing.TreeObject, hash: h, data: data}
	c.folders[path] = o
	c.byHash[h] = o
}

// save writes the cache with the commit just made (best effort: a cache
// that cannot be written only costs speed).
func (c *objectCache) save(commit plumbing.Hash, data []byte) {
	if c.file == "" {
		return
	}
	paths := make([]string, 0, len(c.folders))
	size := len(objectCacheMagic) + len(data) + 32
	for p, o := range c.folders {
		paths = append(paths, p)
		size += len(o.data) + len(p) + 32
	}
	sort.Strings(paths)
	b := make([]byte, 0, size)
	b = append(b, objectCacheMagic...)
	put := func(o cachedObject, path string) {
		b = append(b, byte(o.typ))
		b = append(b, o.hash[:]...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(path)))
		b = append(b, path...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(o.data)))
		b = append(b, o.data...)
	}
	put(cachedObject{typ: plumbing.CommitObject, hash: commit, data: data}, "")
	for _, p := range paths {
		put(c.folders[p], p)
	}
	_ = durable.WriteFile(c.file, b, 0o644, false)
}

// objectHash is git's hash of an object: SHA-1 of "<type> <size>\0<content>".
// Used for the trees and commits curator builds or caches; file contents
// (blobs) go through go-git's ComputeHash, which also detects SHA-1
// collision attacks, at a few times the cost.
func objectHash(t plumbing.ObjectType, data []byte) plumbing.Hash {
	h := sha1.New()
	h.Write([]byte(t.String()))
	h.Write([]byte{' '})
	h.Write(strconv.AppendInt(nil, int64(len(data)), 10))
	h.Write([]byte{0})
	h.Write(data)
	var out plumbing.Hash
	h.Sum(out[:0])
	return out
}
