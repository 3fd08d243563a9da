package mdstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
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

type repoInfo struct {
	repo   *git.Repository
	root   string // work tree root
	gitDir string
	prefix string // store path relative to root, with a trailing slash
}

func (s *Store) openRepo() (*repoInfo, error) {
	repo, err := git.PlainOpenWithOptions(s.Dir, &git.PlainOpenOptions{DetectDotGit: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, ErrNoRepository
	}
	if err != nil {
		return nil, err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, err
	}
	fs, ok := repo.Storer.(*filesystem.Storage)
	if !ok {
		return nil, errors.New("unsupported git storage")
	}
	root := wt.Filesystem.Root()
	rootReal, _ := filepath.EvalSymlinks(root)
	dirReal, _ := filepath.EvalSymlinks(s.Dir)
	rel, err := filepath.Rel(rootReal, dirReal)
	if err != nil {
		return nil, err
	}
	prefix := filepath.ToSlash(rel) + "/"
	if rel == "." {
		prefix = ""
	}
	return &repoInfo{repo: repo, root: root, gitDir: fs.Filesystem().Root(), prefix: prefix}, nil
}

// branch returns the branch HEAD points to and its current commit (nil on a
// branch without commits yet).
func (r *repoInfo) branch() (plumbing.ReferenceName, *plumbing.Reference, error) {
	head, err := r.repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", nil, err
	}
	if head.Type() != plumbing.SymbolicReference {
		return "", nil, ErrDetachedHead
	}
	for _, f := range []string{"MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"} {
		if _, err := os.Stat(filepath.Join(r.gitDir, f)); err == nil {
			return "", nil, ErrMergeInProgress
		}
	}
	ref, err := r.repo.Storer.Reference(head.Target())
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return head.Target(), nil, nil
	}
	return head.Target(), ref, err
}

// runRecorded reports whether a commit of run is on HEAD's branch: it looks
// back along first parents over the commits made since the run started (a
// user may have committed on top of it before the run was recovered).
func (s *Store) runRecorded(run string, since time.Time) (bool, error) {
	r, err := s.openRepo()
	if err != nil {
		return false, err
	}
	_, ref, err := r.branch()
	if err != nil || ref == nil {
		return false, err
	}
	h := ref.Hash()
	for i := 0; i < 1000; i++ {
		c, err := r.repo.CommitObject(h)
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

// CheckCommit tells early whether a commit could be made (repository, branch,
// no merge in progress), so a run can refuse before it changes anything.
func (s *Store) CheckCommit() error {
	r, err := s.openRepo()
	if err != nil {
		return err
	}
	_, _, err = r.branch()
	return err
}

// commit records the changeset as one commit on HEAD's branch: HEAD's tree
// plus the changes (not a scan of the work tree), and updates the index
// entries of the changed paths only.
func (s *Store) commit(c *Changeset, info CommitInfo) (string, error) {
	r, err := s.openRepo()
	if err != nil {
		return "", err
	}
	branch, ref, err := r.branch()
	if err != nil {
		return "", err
	}
	cache := loadObjectCache(filepath.Join(s.Dir, objectCachePath))
	os.RemoveAll(filepath.Join(s.Dir, ".cache", "trees")) // the cache of earlier versions
	var baseTree plumbing.Hash
	var parents []plumbing.Hash
	if ref != nil {
		var ok bool
		if baseTree, ok = cache.commitTree(ref.Hash()); !ok {
			hc, err := r.repo.CommitObject(ref.Hash())
			if err != nil {
				return "", err
			}
			baseTree = hc.TreeHash
		}
		parents = []plumbing.Hash{ref.Hash()}
	}
	mem := memory.NewStorage()
	edit := &treeEdit{}
	blobs := map[string]plumbing.Hash{}
	for _, ch := range c.Changes {
		if ch.From != "" {
			edit.set(r.prefix+ch.From, plumbing.ZeroHash)
		}
		if ch.Delete {
			edit.set(r.prefix+ch.Path, plumbing.ZeroHash)
			continue
		}
		h, err := mem.SetEncodedObject(newBlob(ch.Data))
		if err != nil {
			return "", err
		}
		blobs[r.prefix+ch.Path] = h
		edit.set(r.prefix+ch.Path, h)
	}
	// The git index is updated while the trees are built: it needs only the
	// blobs and the files. Before the branch moves it shows the run's
	// changes as staged, which is what the work tree holds; a crash there
	// is recovered like any other.
	indexDone := make(chan error, 1)
	go func() { indexDone <- r.updateIndex(c, blobs) }()
	ts := trees{repo: r.repo.Storer, out: mem, cache: cache}
	var base []byte
	if !baseTree.IsZero() {
		if base, err = ts.read("", baseTree); err != nil {
			<-indexDone
			return "", err
		}
	}
	tree, err := edit.build(ts, "", base)
	if err != nil {
		<-indexDone
		return "", err
	}
	if !baseTree.IsZero() && tree == baseTree {
		// HEAD already holds exactly these files (a user committed them
		// after a crash): no empty commit, just a clean index.
		return ref.Hash().String(), <-indexDone
	}
	hash, err := s.finishCommit(r, mem, cache, info, tree, parents, branch, ref)
	if ierr := <-indexDone; err == nil && ierr != nil {
		return hash, fmt.Errorf("commit %s made, but updating the git index failed: %w", hash, ierr)
	}
	return hash, err
}

// finishCommit writes the commit object and the run's new objects, and
// moves the branch to the commit.
func (s *Store) finishCommit(r *repoInfo, mem *memory.Storage, cache *objectCache, info CommitInfo, tree plumbing.Hash, parents []plumbing.Hash, branch plumbing.ReferenceName, ref *plumbing.Reference) (string, error) {
	var err error
	if tree.IsZero() {
		if tree, err = writeTreeObject(mem, nil); err != nil {
			return "", err
		}
	}
	sig := object.Signature{Name: s.Config.Author.Name, Email: s.Config.Author.Email, When: info.At}
	if sig.When.IsZero() {
		sig.When = s.Now()
	}
	co := &object.Commit{Author: sig, Committer: sig, Message: info.Message(), TreeHash: tree, ParentHashes: parents}
	enc := mem.NewEncodedObject()
	if err := co.Encode(enc); err != nil {
		return "", err
	}
	commitData, err := readObjectContent(enc)
	if err != nil {
		return "", err
	}
	commitHash, err := mem.SetEncodedObject(&rawObject{typ: plumbing.CommitObject, data: commitData, hash: objectHash(plumbing.CommitObject, commitData)})
	if err != nil {
		return "", err
	}
	if err := storeObjects(r, mem); err != nil {
		return "", err
	}
	if err := syncAll(r.gitDir); err != nil {
		return "", err
	}
	if err := r.repo.Storer.CheckAndSetReference(plumbing.NewHashReference(branch, commitHash), ref); err != nil {
		return "", fmt.Errorf("updating %s: %w", branch, err)
	}
	s.queueCache(objectCachePath, func() { cache.save(commitHash, commitData) })
	return commitHash.String(), nil
}

// storeObjects moves the run's new objects into the repository: loose
// objects for a small run, one pack file (writePack) for a large one.
func storeObjects(r *repoInfo, mem *memory.Storage) error {
	repo := r.repo.Storer
	// Objects git has already are written again rather than looked up: a
	// lookup makes go-git load every pack index, which costs more than the
	// few duplicates (git gc drops them).
	hashes := make([]plumbing.Hash, 0, len(mem.ObjectStorage.Objects))
	for h := range mem.ObjectStorage.Objects {
		hashes = append(hashes, h)
	}
	sort.Slice(hashes, func(i, j int) bool { return bytes.Compare(hashes[i][:], hashes[j][:]) < 0 })
	if len(hashes) <= looseLimit {
		for _, h := range hashes {
			if _, err := repo.SetEncodedObject(mem.ObjectStorage.Objects[h]); err != nil {
				return err
			}
		}
		return nil
	}
	objs := make([]plumbing.EncodedObject, len(hashes))
	for i, h := range hashes {
		objs[i] = mem.ObjectStorage.Objects[h]
	}
	return writePack(r.gitDir, objs)
}

// refreshIndex sets the index entries of a changeset's paths to the files'
// current content, for a run whose commit exists already.
func (s *Store) refreshIndex(c *Changeset) error {
	r, err := s.openRepo()
	if err != nil {
		return err
	}
	blobs := map[string]plumbing.Hash{}
	for _, ch := range c.Changes {
		if ch.Delete {
			continue
		}
		blobs[r.prefix+ch.Path] = plumbing.ComputeHash(plumbing.BlobObject, ch.Data)
	}
	return r.updateIndex(c, blobs)
}

// updateIndex rewrites the index entries of the changed paths only; every
// other entry (the user's staged work) is kept as it is.
func (r *repoInfo) updateIndex(c *Changeset, blobs map[string]plumbing.Hash) error {
	touched := map[string]bool{}
	for _, p := range c.Paths() {
		touched[r.prefix+p] = true
	}
	var add []*index.Entry
	for name, h := range blobs {
		fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(name)))
		if err != nil {
			continue // changed again since; git will see it as a change
		}
		e := &index.Entry{Name: name, Hash: h, Mode: filemode.Regular, Size: uint32(fi.Size()), ModifiedAt: fi.ModTime()}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			e.CreatedAt = time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
			e.Dev, e.Inode, e.UID, e.GID = uint32(st.Dev), uint32(st.Ino), st.Uid, st.Gid
		}
		add = append(add, e)
	}
	path := filepath.Join(r.gitDir, "index")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		data, err = encodeIndex(&index.Index{Version: 2})
	}
	if err != nil {
		return err
	}
	out, err := spliceIndex(data, touched, add)
	if errors.Is(err, errIndexFormat) {
		out, err = r.updateIndexGoGit(touched, add)
	}
	if err != nil {
		return err
	}
	// Atomic but not synced here: Save's last sync makes it durable (git
	// does not sync its index either).
	return writeFile(path, out, 0o644, false)
}

// updateIndexGoGit edits an index of a version spliceIndex does not read
// (version 4) through go-git's codec.
func (r *repoInfo) updateIndexGoGit(drop map[string]bool, add []*index.Entry) ([]byte, error) {
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return nil, err
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if !drop[e.Name] {
			kept = append(kept, e)
		}
	}
	idx.Entries = append(kept, add...)
	idx.Cache = nil
	return encodeIndex(idx)
}
