package history

import (
	"bytes"
	"encoding/hex"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/curator-dev/curator/internal/gittree"
)

// objectsOf reads repo's objects as bytes, straight from its pack files
// and loose objects (go-git's storage for the rest). Close it when done.
func objectsOf(repo *git.Repository) *gittree.Objects {
	dir := ""
	if st, ok := repo.Storer.(*filesystem.Storage); ok {
		dir = st.Filesystem().Root()
	}
	return gittree.OpenObjects(dir, repo.Storer)
}

// readCommit decodes commit h as go-git does, from its bytes read through
// objs (a commit with only the four usual headers by plainCommit, any other
// by go-git). The commit knows no storage: its parents and tree are hashes.
func readCommit(objs *gittree.Objects, h plumbing.Hash) (*object.Commit, error) {
	b, err := objs.ReadType(h, plumbing.CommitObject)
	if err != nil {
		return nil, err
	}
	if c, ok := plainCommit(h, b); ok {
		return c, nil
	}
	mo := &plumbing.MemoryObject{}
	mo.SetType(plumbing.CommitObject)
	if _, err := mo.Write(b); err != nil {
		return nil, err
	}
	c := &object.Commit{}
	if err := c.Decode(hashed{mo, h}); err != nil {
		return nil, err
	}
	return c, nil
}

// hashed is an object whose hash is known (not computed again from its
// bytes).
type hashed struct {
	*plumbing.MemoryObject
	h plumbing.Hash
}

func (o hashed) Hash() plumbing.Hash { return o.h }

// resolve is the commit rev names; HEAD is read from its reference alone
// (go-git's revision parser would read the commit's object to check it).
func resolve(repo *git.Repository, rev string) (*plumbing.Hash, error) {
	if rev != "HEAD" {
		return repo.ResolveRevision(plumbing.Revision(rev))
	}
	ref, err := repo.Head()
	if err != nil {
		return nil, err
	}
	h := ref.Hash()
	return &h, nil
}

// plainCommit decodes a commit whose headers are tree, parents, author and
// committer, in that order, then a blank line and the message (every
// commit curator writes); ok is false for any other, which go-git decodes.
func plainCommit(h plumbing.Hash, b []byte) (*object.Commit, bool) {
	c := &object.Commit{Hash: h}
	line := func(key string) ([]byte, bool) {
		i := bytes.IndexByte(b, '\n')
		if i < 0 || i < len(key)+1 || string(b[:len(key)]) != key || b[len(key)] != ' ' {
			return nil, false
		}
		v := b[len(key)+1 : i]
		b = b[i+1:]
		return v, true
	}
	hash := func(v []byte) (plumbing.Hash, bool) {
		var x plumbing.Hash
		if len(v) != 2*len(x) {
			return x, false
		}
		_, err := hex.Decode(x[:], v)
		return x, err == nil
	}
	v, ok := line("tree")
	if !ok {
		return nil, false
	}
	if c.TreeHash, ok = hash(v); !ok {
		return nil, false
	}
	for bytes.HasPrefix(b, []byte("parent ")) {
		v, _ := line("parent")
		p, ok := hash(v)
		if !ok {
			return nil, false
		}
		c.ParentHashes = append(c.ParentHashes, p)
	}
	if v, ok = line("author"); !ok {
		return nil, false
	}
	c.Author.Decode(v)
	if v, ok = line("committer"); !ok {
		return nil, false
	}
	c.Committer.Decode(v)
	if len(b) == 0 || b[0] != '\n' {
		return nil, false
	}
	c.Message = string(b[1:])
	return c, true
}
