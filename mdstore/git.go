package mdstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

// ErrDetachedHead and ErrMergeInProgress are why a commit is refused.
var (
	ErrDetachedHead    = errors.New("HEAD is detached; check out a branch before curating")
	ErrMergeInProgress = errors.New("a git merge is in progress; finish or abort it before curating")
	ErrNoRepository    = errors.New("the store is not inside a git repository (run `curator init` or pass --no-commit)")
)

// CommitInfo is what a run's commit says.
type CommitInfo struct {
	// Summary is the first line.
	Summary string `json:"summary"`
	// Decisions are the run's decisions, one per line of the body.
	Decisions []string `json:"decisions,omitempty"`
	RunID     string   `json:"run_id"`
	// Command is the command line that made the run.
	Command string    `json:"command"`
	At      time.Time `json:"at"`
}

// Message renders the commit message: summary, decisions, trailers.
func (c CommitInfo) Message() string {
	var b strings.Builder
	b.WriteString(c.Summary)
	b.WriteString("\n\n")
	for _, d := range c.Decisions {
		b.WriteString(d)
		b.WriteByte('\n')
	}
	if len(c.Decisions) > 0 {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Curator-Run: %s\nCurator-Command: %s\n", c.RunID, c.Command)
	return b.String()
}

// looseLimit is the number of new objects up to which a commit writes loose
// objects; larger runs write one pack file instead of thousands of files.
const looseLimit = 256

// maxRefRaces is how often a commit is built again on a branch that moved
// while it was being made.
const maxRefRaces = 8

// runRecorded reports whether a commit of run is on HEAD's branch: it looks
// back along first parents over the commits made since the run started (a
// user may have committed on top of it before the run was recovered).
func (s *Store) runRecorded(run string, since time.Time) (bool, error) {
	r, err := s.openRepo()
	if err != nil {
		return false, err
	}
	_, h, err := r.headBranch()
	if err != nil || h.IsZero() {
		return false, err
	}
	for i := 0; i < 1000; i++ {
		c, err := object.GetCommit(r.st, h)
		if err != nil {
			return false, err
		}
		if strings.Contains(c.Message, "\nCurator-Run: "+run+"\n") {
			return true, nil
		}
		if c.Committer.When.Before(since.Add(-time.Minute)) || len(c.ParentHashes) == 0 {
			return false, nil
		}
		h = c.ParentHashes[0]
	}
	return false, nil
}

// CheckCommit tells early whether a commit could be made (repository,
// branch, no merge in progress, git settings curator can commit under), so
// a run can refuse before it changes anything.
func (s *Store) CheckCommit() error {
	r, err := s.openRepo()
	if err != nil {
		return err
	}
	if err := r.checkSettings(); err != nil {
		return err
	}
	_, _, err = r.headBranch()
	return err
}

// unchangedError is an error of a commit that stopped before the run
// changed any file: the store and the repository are as they were.
type unchangedError struct{ err error }

func (e *unchangedError) Error() string { return e.err.Error() }
func (e *unchangedError) Unwrap() error { return e.err }

// nothingChanged reports whether err stopped a run before it changed a file.
func nothingChanged(err error) bool {
	var u *unchangedError
	return errors.As(err, &u)
}

// commit records the changeset as one commit on HEAD's branch, the way git
// itself commits, so that git commands running beside it never lose or
// absorb a change:
//
//  1. .git/index.lock is created exclusively (waiting while a git command
//     holds it) and held to the end, so no `git add`, `git commit`, `git
//     stash` or `git checkout` reads or writes the index meanwhile;
//  2. the commit is built from HEAD's tree plus the changes (not a scan of
//     the work tree) and its objects are written, before any file changes,
//     so a full disk stops the run with nothing changed;
//  3. apply changes the files (nil: they are changed already);
//  4. the new index (the run's paths updated, every other entry as it was)
//     is written into index.lock, and everything is synced once;
//  5. the branch is moved with a compare-and-swap under HEAD.lock and the
//     branch's own lock; if another process moved it, the commit is built
//     again on the new tip;
//  6. index.lock is renamed over the index.
//
// An error before step 3 is an unchangedError.
func (s *Store) commit(c *Changeset, info CommitInfo, apply func() error) (string, error) {
	unchanged := func(err error) (string, error) { return "", &unchangedError{err} }
	r, err := s.openRepo()
	if err != nil {
		return unchanged(err)
	}
	if err := r.checkSettings(); err != nil {
		return unchanged(err)
	}
	owner := &lockOwner{file: s.lockOwnerFile()}
	il, err := takeGitLock(filepath.Join(r.gitDir, "index"), s.LockTimeout(), owner)
	if err != nil {
		return unchanged(err)
	}
	defer il.release()
	index, err := r.readIndex()
	if err != nil {
		return unchanged(err)
	}
	os.RemoveAll(filepath.Join(s.Dir, ".cache", "trees")) // the cache of earlier versions
	cache := loadObjectCache(filepath.Join(s.Dir, objectCachePath))
	blobs := map[string]*rawObject{}
	for _, ch := range c.Changes {
		if !ch.Delete {
			blobs[r.prefix+ch.Path] = newBlob(r.toGit(ch.Data))
		}
	}
	blobsWritten := false
	for race := 0; race < maxRefRaces; race++ {
		branch, tip, err := r.headBranch()
		if err != nil {
			if apply != nil {
				return unchanged(err)
			}
			return "", err
		}
		b, err := s.buildCommit(r, c, info, cache, blobs, tip, !blobsWritten)
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
		if err := r.writeIndex(il, index, c, blobs); err != nil {
			b.discard()
			return "", err
		}
		if err := syncBoth(r.commonDir, s.Dir); err != nil {
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
		who := signature(s.Config.Author.Name, s.Config.Author.Email)
		head, err := r.moveBranch(branch, tip, b.hash, who, b.at, info.Summary, s.LockTimeout(), owner)
		if errors.Is(err, errRefMoved) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("updating %s: %w", branch, err)
		}
		err = il.commit()
		head.release()
		s.queueCache(objectCachePath, func() { cache.save(b.hash, b.data) })
		return b.hash.String(), err
	}
	return "", fmt.Errorf("the branch moved %d times while curator was committing; the files are changed and the next run commits them", maxRefRaces)
}

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
func (s *Store) buildCommit(r *repoInfo, c *Changeset, info CommitInfo, cache *objectCache, blobs map[string]*rawObject, tip plumbing.Hash, withBlobs bool) (*builtCommit, error) {
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
	mem := memory.NewStorage()
	edit := &treeEdit{}
	for _, ch := range c.Changes {
		if ch.From != "" {
			edit.set(r.prefix+ch.From, plumbing.ZeroHash)
		}
		if ch.Delete {
			edit.set(r.prefix+ch.Path, plumbing.ZeroHash)
			continue
		}
		b := blobs[r.prefix+ch.Path]
		if withBlobs {
			if _, err := mem.SetEncodedObject(b); err != nil {
				return nil, err
			}
		}
		edit.set(r.prefix+ch.Path, b.hash)
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
	if !baseTree.IsZero() && tree == baseTree {
		return &builtCommit{hash: tip, noop: true}, nil
	}
	if tree.IsZero() {
		if tree, err = writeTreeObject(mem, nil); err != nil {
			return nil, err
		}
	}
	sig := object.Signature{Name: s.Config.Author.Name, Email: s.Config.Author.Email, When: info.At}
	if sig.When.IsZero() {
		sig.When = s.Now()
	}
	co := &object.Commit{Author: sig, Committer: sig, Message: info.Message(), TreeHash: tree, ParentHashes: parents}
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
func storeObjects(r *repoInfo, mem *memory.Storage) (*pendingPack, error) {
	hashes := make([]plumbing.Hash, 0, len(mem.ObjectStorage.Objects))
	for h := range mem.ObjectStorage.Objects {
		hashes = append(hashes, h)
	}
	sort.Slice(hashes, func(i, j int) bool { return bytes.Compare(hashes[i][:], hashes[j][:]) < 0 })
	objs := make([]plumbing.EncodedObject, len(hashes))
	for i, h := range hashes {
		objs[i] = mem.ObjectStorage.Objects[h]
	}
	if len(objs) <= looseLimit {
		return nil, writeLoose(r.commonDir, objs)
	}
	return writePack(r.commonDir, objs)
}

// refreshIndex sets the index entries of a changeset's paths to the files'
// current content, for a run whose commit exists already.
func (s *Store) refreshIndex(c *Changeset) error {
	r, err := s.openRepo()
	if err != nil {
		return err
	}
	il, err := takeGitLock(filepath.Join(r.gitDir, "index"), s.LockTimeout(), &lockOwner{file: s.lockOwnerFile()})
	if err != nil {
		return err
	}
	defer il.release()
	index, err := r.readIndex()
	if err != nil {
		return err
	}
	blobs := map[string]*rawObject{}
	for _, ch := range c.Changes {
		if !ch.Delete {
			blobs[r.prefix+ch.Path] = newBlob(r.toGit(ch.Data))
		}
	}
	if err := r.writeIndex(il, index, c, blobs); err != nil {
		return err
	}
	return il.commit()
}

// readIndex reads the worktree's git index (an empty one when there is
// none yet), refusing a split or sparse index. The caller holds
// index.lock, so it cannot change before the new one replaces it.
func (r *repoInfo) readIndex() (gitIndex, error) {
	path := filepath.Join(r.gitDir, "index")
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		data, err := encodeIndex(&index.Index{Version: 2})
		return gitIndex{data: data}, err
	}
	if err != nil {
		return gitIndex{}, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return gitIndex{}, err
	}
	if err := checkIndexExtensions(data); err != nil {
		return gitIndex{}, fmt.Errorf("%s: %w", path, err)
	}
	return gitIndex{data: data, written: fi.ModTime()}, nil
}

// gitIndex is the index file's bytes and the time it was written.
type gitIndex struct {
	data    []byte
	written time.Time
}

// writeIndex writes into the index lock the index with the changed paths'
// entries replaced; every other entry (the user's staged work) is kept as
// it is. Not synced here: the commit's one sync makes it durable.
func (r *repoInfo) writeIndex(il *gitLock, idx gitIndex, c *Changeset, blobs map[string]*rawObject) error {
	touched := map[string]bool{}
	for _, p := range c.Paths() {
		touched[r.prefix+p] = true
	}
	add := make([]*index.Entry, 0, len(blobs))
	for name, b := range blobs {
		e := &index.Entry{Name: name, Hash: b.hash, Mode: filemode.Regular}
		if !indexStat(filepath.Join(r.root, filepath.FromSlash(name)), e) {
			continue // changed again since; git will see it as a change
		}
		add = append(add, e)
	}
	out, err := spliceIndexAt(idx.data, touched, add, idx.written)
	if errors.Is(err, errIndexFormat) {
		out, err = updateIndexGoGit(idx.data, touched, add, idx.written)
	}
	if err != nil {
		return err
	}
	return il.write(out, false)
}

// updateIndexGoGit edits an index of a version spliceIndex does not read
// (version 4) through go-git's codec.
func updateIndexGoGit(data []byte, drop map[string]bool, add []*index.Entry, written time.Time) ([]byte, error) {
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
		return nil, fmt.Errorf("reading the git index: %w", err)
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if !drop[e.Name] {
			if !e.ModifiedAt.Before(written) {
				e.Size = 0 // racily clean: smudged, as spliceIndexAt does
			}
			kept = append(kept, e)
		}
	}
	idx.Entries = append(kept, add...)
	idx.Cache = nil
	return encodeIndex(idx)
}

// syncBoth makes the writes to the file systems holding both folders
// durable: one sync when they are on the same one (the usual case).
func syncBoth(a, b string) error {
	if err := syncAll(a); err != nil {
		return err
	}
	if ia, ok := pathDevice(a); ok {
		if ib, ok := pathDevice(b); ok && ia == ib {
			return nil
		}
	}
	return syncAll(b)
}
