package history

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// Commit is one commit of a walk: its hash, committer time and whole
// message.
type Commit struct {
	Hash    string
	Time    time.Time
	Message string
}

// Walk calls each for the commits of the repository holding dir, newest
// first along first parents from HEAD, until one is older than since
// (zero: no bound), stop says the commit is known (it is not passed to
// each), or the root. A repository without a commit has nothing to walk.
// It returns HEAD's hash ("" when there is none).
func Walk(dir string, since time.Time, stop func(hash string) bool, each func(Commit) error) (string, error) {
	repo, done, err := openRepo(dir)
	if err != nil {
		return "", err
	}
	defer done()
	h, err := resolve(repo, "HEAD")
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("revision HEAD: %w", err)
	}
	objs := objectsOf(repo)
	defer objs.Close()
	c, err := readCommit(objs, *h)
	if err != nil {
		return "", err
	}
	for c != nil {
		when := c.Committer.When.UTC()
		if !since.IsZero() && when.Before(since) {
			break
		}
		hash := c.Hash.String()
		if stop != nil && stop(hash) {
			break
		}
		if err := each(Commit{Hash: hash, Time: when, Message: c.Message}); err != nil {
			return h.String(), err
		}
		if c.NumParents() == 0 {
			break
		}
		if c, err = readCommit(objs, c.ParentHashes[0]); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, plumbing.ErrObjectNotFound) {
				break // a shallow clone's first commit
			}
			return h.String(), err
		}
	}
	return h.String(), nil
}

// Head is the hash of the commit HEAD names ("" before the first commit).
func Head(dir string) (string, error) {
	repo, done, err := openRepo(dir)
	if err != nil {
		return "", err
	}
	defer done()
	h, err := resolve(repo, "HEAD")
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return h.String(), nil
}
