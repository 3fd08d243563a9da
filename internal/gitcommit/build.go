package gitcommit

import (
	"bytes"
	"fmt"
	"sort"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

// builtCommit is a commit whose objects are written.
type builtCommit struct {
	hash plumbing.Hash
	data []byte
	at   time.Time
	noop bool         // the tree is the tip's: nothing to commit
	pack *pendingPack // a large run's pack, published before the branch moves
}

func (b *builtCommit) discard() {
	if b != nil {
		b.pack.discard()
	}
}

// buildCommit builds the tree of tip plus the changeset and the commit
// object, and writes the new objects (the blobs too when withBlobs).
func buildCommit(r *Repo, changes []Change, msg string, opt Options, cache *objectCache, blobs map[string]*rawObject, tip plumbing.Hash, withBlobs bool) (*builtCommit, error) {
	var baseTree plumbing.Hash
	var parents []plumbing.Hash
	if !tip.IsZero() {
		var ok bool
		if baseTree, ok = cache.commitTree(tip); !ok {
			hc, err := object.GetCommit(r.st, tip)
			if err != nil {
				return nil, err
			}
			baseTree = hc.TreeHash
		}
		parents = []plumbing.Hash{tip}
	}
	if !opt.MergeParent.IsZero() {
		parents = append(parents, opt.MergeParent)
	}
	mem := memory.NewStorage()
	edit := &treeEdit{}
	for _, ch := range changes {
		if ch.From != "" {
			edit.set(r.path(ch, ch.From), plumbing.ZeroHash)
		}
		if ch.Delete {
			edit.set(r.path(ch, ch.Path), plumbing.ZeroHash)
			continue
		}
		b := blobs[r.path(ch, ch.Path)]
		if withBlobs {
			if _, err := mem.SetEncodedObject(b); err != nil {
				return nil, err
			}
		}
		edit.set(r.path(ch, ch.Path), b.hash)
	}
	ts := trees{repo: r.st, out: mem, cache: cache}
	var base []byte
	var err error
	if !baseTree.IsZero() {
		if base, err = ts.read("", baseTree); err != nil {
			return nil, err
		}
	}
	tree, err := edit.build(ts, "", base)
	if err != nil {
		return nil, err
	}
	if !baseTree.IsZero() && tree == baseTree && opt.MergeParent.IsZero() {
		return &builtCommit{hash: tip, noop: true}, nil
	}
	if opt.FastForward {
		mc, err := object.GetCommit(r.st, opt.MergeParent)
		if err != nil {
			return nil, err
		}
		if tree != mc.TreeHash {
			return nil, fmt.Errorf("the changes do not give the files of %s: no fast-forward", opt.MergeParent)
		}
		return &builtCommit{hash: opt.MergeParent, at: opt.When}, nil
	}
	if tree.IsZero() {
		if tree, err = writeTreeObject(mem, nil); err != nil {
			return nil, err
		}
	}
	sig := object.Signature{Name: opt.Author.Name, Email: opt.Author.Email, When: opt.When}
	co := &object.Commit{Author: sig, Committer: sig, Message: msg, TreeHash: tree, ParentHashes: parents}
	enc := mem.NewEncodedObject()
	if err := co.Encode(enc); err != nil {
		return nil, err
	}
	data, err := readObjectContent(enc)
	if err != nil {
		return nil, err
	}
	hash, err := mem.SetEncodedObject(&rawObject{typ: plumbing.CommitObject, data: data, hash: objectHash(plumbing.CommitObject, data)})
	if err != nil {
		return nil, err
	}
	b := &builtCommit{hash: hash, data: data, at: sig.When}
	b.pack, err = storeObjects(r, mem)
	return b, err
}

// storeObjects writes the run's new objects into the repository's common
// folder: loose objects for a small run, one pack (writePack, published
// later) for a large one. Objects git has already are written again rather
// than looked up: a lookup makes go-git load every pack index, which costs
// more than the few duplicates (git gc drops them).
func storeObjects(r *Repo, mem *memory.Storage) (*pendingPack, error) {
	hashes := make([]plumbing.Hash, 0, len(mem.ObjectStorage.Objects))
	for h := range mem.ObjectStorage.Objects {
		hashes = append(hashes, h)
	}
	sort.Slice(hashes, func(i, j int) bool { return bytes.Compare(hashes[i][:], hashes[j][:]) < 0 })
	objs := make([]plumbing.EncodedObject, len(hashes))
	for i, h := range hashes {
		objs[i] = mem.ObjectStorage.Objects[h]
	}
	if len(objs) <= LooseLimit {
		return nil, writeLoose(r.commonDir, objs)
	}
	return writePack(r.commonDir, objs)
}
