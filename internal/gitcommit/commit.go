package gitcommit

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Change is one file change of a commit. Paths are relative to the folder
// the Repo was opened at, with slashes.
type Change struct {
	// Path is the file written or deleted.
	Path string
	// From, when set, is a file the change moves to Path: it is removed
	// from the commit's tree.
	From string
	// Data is the new content of Path (ignored when Delete is set).
	Data []byte
	// Delete removes Path.
	Delete bool
	// Root means Path and From are relative to the work tree's root, not
	// to the folder the Repo was opened at (a merge also changes files
	// outside the store).
	Root bool
}

// path is the repository path of p, a path of ch.
func (r *Repo) path(ch Change, p string) string {
	if ch.Root {
		return p
	}
	return r.prefix + p
}

// Signature is who makes a commit.
type Signature struct {
	Name, Email string
}

// String is "Name <email>", as reflogs spell it.
func (s Signature) String() string { return s.Name + " <" + s.Email + ">" }

// Options control how a commit is made.
type Options struct {
	// Author is the commit's author and committer.
	Author Signature
	// When is the commit's time (zero: now).
	When time.Time
	// LockTimeout is how long to wait for a lock a git process holds.
	LockTimeout time.Duration
	// ObjectCache is the file of the object cache ("" for none): the last
	// commit made and the trees on its changed paths, so that the next
	// commit reads its base from one file instead of git's packs.
	ObjectCache string
	// LockRecord is the file where the git locks this process takes are
	// recorded before they exist ("" for none), so that RemoveStaleLocks
	// removes them after a kill at any instant (see gitLock). Only one
	// process at a time may use a record.
	LockRecord string
	// MergeParent, when set, is the second parent of the commit: the
	// commit merges that commit into the branch. The branch must still be
	// at Tip when the commit is made; a merge is never rebuilt on a tip
	// that moved.
	MergeParent plumbing.Hash
	// Tip is the commit the changes were computed against (with
	// MergeParent).
	Tip plumbing.Hash
	// FastForward moves the branch to MergeParent instead of making a
	// commit: the changes make the files MergeParent's.
	FastForward bool
	// SaveCache, when set, is given the object cache's write to run after
	// the caller's last sync (the cache needs no durability); nil writes
	// it at once.
	SaveCache func(write func())
}

// LooseLimit is the number of new objects up to which a commit writes
// loose objects; larger commits write one pack file instead of thousands
// of files.
const LooseLimit = 256

// maxRefRaces is how often a commit is built again on a branch that moved
// while it was being made.
const maxRefRaces = 8

// unchangedError is an error of a commit that stopped before apply was
// called: the work tree and the repository are as they were.
type unchangedError struct{ err error }

func (e *unchangedError) Error() string { return e.err.Error() }
func (e *unchangedError) Unwrap() error { return e.err }

// NothingChanged reports whether err stopped Commit before it called apply
// (git busy, a refused setting, a full disk while writing objects): the
// work tree and the repository are as they were.
func NothingChanged(err error) bool {
	var u *unchangedError
	return errors.As(err, &u)
}

// Commit records the changes as one commit on the branch HEAD names, the
// way git itself commits, so that git commands running beside it never
// lose or absorb a change, and returns the commit's hash:
//
//  1. index.lock is created exclusively (waiting while a git command holds
//     it) and held to the end, so no `git add`, `git commit`, `git stash`
//     or `git checkout` reads or writes the index meanwhile;
//  2. the commit is built from HEAD's tree plus the changes (not a scan of
//     the work tree) and its objects are written, before any file changes,
//     so a full disk stops the commit with nothing changed;
//  3. apply changes the work-tree files (nil: they are changed already);
//  4. the new index (the changed paths updated, every other entry as it
//     was) is written into index.lock, and everything is synced once;
//  5. the branch is moved with a compare-and-swap under HEAD.lock and the
//     branch's own lock; if another process moved it, the commit is built
//     again on the new tip;
//  6. index.lock is renamed over the index.
//
// An error before step 3 satisfies NothingChanged. When HEAD's tree
// already holds exactly the changes, no commit is made: the index is
// updated and HEAD's hash returned. After the commit, a repository with
// too many loose objects or packs is repacked in the background (see
// Repack).
func Commit(r *Repo, changes []Change, msg string, apply func() error, opt Options) (string, error) {
	unchanged := func(err error) (string, error) { return "", &unchangedError{err} }
	if err := r.checkSettings(); err != nil {
		return unchanged(err)
	}
	owner := &lockOwner{file: opt.LockRecord}
	il, err := takeGitLock(filepath.Join(r.gitDir, "index"), opt.LockTimeout, owner)
	if err != nil {
		return unchanged(err)
	}
	defer il.release()
	index, err := r.readIndex()
	if err != nil {
		return unchanged(err)
	}
	if opt.When.IsZero() {
		opt.When = time.Now()
	}
	cache := loadObjectCache(opt.ObjectCache)
	blobs := r.blobs(changes)
	blobsWritten := false
	for race := 0; race < maxRefRaces; race++ {
		branch, tip, err := r.headBranch()
		if err != nil {
			if apply != nil {
				return unchanged(err)
			}
			return "", err
		}
		if !opt.MergeParent.IsZero() && tip != opt.Tip {
			err := fmt.Errorf("%s moved to %s while curator was merging into %s", branch, short(tip), short(opt.Tip))
			if apply != nil {
				return unchanged(err)
			}
			return "", err
		}
		b, err := buildCommit(r, changes, msg, opt, cache, blobs, tip, !blobsWritten)
		if err != nil {
			b.discard()
			if apply != nil {
				return unchanged(err)
			}
			return "", err
		}
		blobsWritten = true
		if apply != nil {
			if err := apply(); err != nil {
				b.discard()
				return "", err
			}
			apply = nil
		}
		if err := r.writeIndex(il, index, changes, blobs); err != nil {
			b.discard()
			return "", err
		}
		if err := syncBoth(r.commonDir, r.dir); err != nil {
			b.discard()
			return "", err
		}
		if b.noop {
			// HEAD already holds exactly these files (a user committed
			// them after a crash): no empty commit, just the index.
			return tip.String(), il.commit()
		}
		if err := b.pack.publish(); err != nil {
			return "", err
		}
		head, err := r.moveBranch(branch, tip, b.hash, opt.Author.String(), b.at, msg, opt.LockTimeout, owner)
		if errors.Is(err, errRefMoved) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("updating %s: %w", branch, err)
		}
		err = il.commit()
		head.release()
		save := func() { cache.save(b.hash, b.data) }
		if opt.SaveCache != nil {
			opt.SaveCache(save)
		} else {
			save()
		}
		if err == nil {
			Repack(r)
		}
		return b.hash.String(), err
	}
	return "", fmt.Errorf("the branch moved %d times while curator was committing; the files are changed and the next run commits them", maxRefRaces)
}

// RefreshIndex sets the index entries of the changed paths to the files'
// current content, for changes whose commit exists already (a crash
// between the branch moving and the index being renamed into place).
func RefreshIndex(r *Repo, changes []Change, opt Options) error {
	il, err := takeGitLock(filepath.Join(r.gitDir, "index"), opt.LockTimeout, &lockOwner{file: opt.LockRecord})
	if err != nil {
		return err
	}
	defer il.release()
	index, err := r.readIndex()
	if err != nil {
		return err
	}
	if err := r.writeIndex(il, index, changes, r.blobs(changes)); err != nil {
		return err
	}
	return il.commit()
}

// blobs are the changes' new files as git stores them, by repository path.
func (r *Repo) blobs(changes []Change) map[string]*rawObject {
	blobs := make(map[string]*rawObject, len(changes))
	for _, ch := range changes {
		if !ch.Delete {
			blobs[r.path(ch, ch.Path)] = newBlob(r.toGit(ch.Data))
		}
	}
	return blobs
}

// syncBoth makes the writes to the file systems holding both folders
// durable: one sync when they are on the same one (the usual case).
func syncBoth(a, b string) error {
	if err := durable.SyncAll(a); err != nil {
		return err
	}
	if ia, ok := pathDevice(a); ok {
		if ib, ok := pathDevice(b); ok && ia == ib {
			return nil
		}
	}
	return durable.SyncAll(b)
}

// Recorded reports whether a commit whose message match accepts is on
// HEAD's branch: it looks back along first parents over the commits made
// since (a user may have committed on top of it since).
func (r *Repo) Recorded(since time.Time, match func(message string) bool) (bool, error) {
	_, h, err := r.headBranch()
	if err != nil || h.IsZero() {
		return false, err
	}
	for i := 0; i < 1000; i++ {
		c, err := object.GetCommit(r.st, h)
		if err != nil {
			return false, err
		}
		if match(c.Message) {
			return true, nil
		}
		if c.Committer.When.Before(since.Add(-time.Minute)) || len(c.ParentHashes) == 0 {
			return false, nil
		}
		h = c.ParentHashes[0]
	}
	return false, nil
}

// Check tells early whether a commit could be made (a branch checked out,
// no merge in progress, git settings curator can commit under), so that a
// caller can refuse before it changes anything.
func (r *Repo) Check() error {
	if err := r.checkSettings(); err != nil {
		return err
	}
	_, _, err := r.headBranch()
	return err
}

// short is the abbreviated form of a commit hash.
func short(h plumbing.Hash) string { return h.String()[:10] }

// Stage records the changed files in the index as `git add` does: their
// blobs are written and their entries (any conflict stages included)
// replaced; a deleted file's entries are removed.
func Stage(r *Repo, changes []Change, opt Options) error {
	mem := memory.NewStorage()
	for _, b := range r.blobs(changes) {
		if _, err := mem.SetEncodedObject(b); err != nil {
			return err
		}
	}
	p, err := storeObjects(r, mem)
	if err != nil {
		return err
	}
	if err := p.publish(); err != nil {
		return err
	}
	return RefreshIndex(r, changes, opt)
}
