package history

import (
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
// objs. The commit knows no storage: its parents and tree are hashes.
func readCommit(objs *gittree.Objects, h plumbing.Hash) (*object.Commit, error) {
	b, err := objs.ReadType(h, plumbing.CommitObject)
	if err != nil {
		return nil, err
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
