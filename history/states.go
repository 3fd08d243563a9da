package history

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/curator-dev/curator/internal/gittree"
)

// Changed reads the record files of the store in dir that differ between
// two states of its git repository, as spec names them (as git diff does):
//
//	""       the work tree against HEAD (what is not committed yet)
//	REV      the work tree against REV (what changed since REV)
//	REV^!    REV's first parent → REV (what one run did; a root commit
//	         against nothing)
//	A..B     A → B (an empty side is HEAD)
//	A...B    the merge base of A and B → B (what a branch changes)
//
// Paths are store-relative; files outside the store, and files that hold
// no record, are left out.
func Changed(dir, spec string) ([]File, error) {
	repo, done, err := openRepo(dir)
	if err != nil {
		return nil, err
	}
	defer done()
	prefix, err := storePrefix(repo, dir)
	if err != nil {
		return nil, err
	}
	objs := objectsOf(repo)
	defer objs.Close()
	var oldT, newT plumbing.Hash
	switch {
	case strings.HasSuffix(spec, "^!"):
		if oldT, newT, err = commitTrees(repo, objs, strings.TrimSuffix(spec, "^!")); err != nil {
			return nil, err
		}
	case strings.Contains(spec, "..."):
		a, b, _ := strings.Cut(spec, "...")
		ca, err := commitOf(repo, orHEAD(a))
		if err != nil {
			return nil, err
		}
		cb, err := commitOf(repo, orHEAD(b))
		if err != nil {
			return nil, err
		}
		bases, err := ca.MergeBase(cb)
		if err != nil {
			return nil, err
		}
		if len(bases) == 0 {
			return nil, fmt.Errorf("%s and %s have no common ancestor", orHEAD(a), orHEAD(b))
		}
		oldT, newT = bases[0].TreeHash, cb.TreeHash
	case strings.Contains(spec, ".."):
		a, b, _ := strings.Cut(spec, "..")
		if oldT, err = treeHashOf(repo, objs, orHEAD(a)); err != nil {
			return nil, err
		}
		if newT, err = treeHashOf(repo, objs, orHEAD(b)); err != nil {
			return nil, err
		}
	default: // "" or REV: the work tree against it
		t, err := treeOf(repo, orHEAD(spec), spec == "")
		if err != nil {
			return nil, err
		}
		old, err := subtree(t, prefix)
		if err != nil {
			return nil, err
		}
		return workTree(dir, old)
	}
	old, err := gittree.Lookup(objs, oldT, prefix)
	if err != nil {
		return nil, err
	}
	nw, err := gittree.Lookup(objs, newT, prefix)
	if err != nil {
		return nil, err
	}
	return treeChanges(objs, old, nw)
}

// commitTrees are the trees of rev's first parent (zero for a root
// commit) and of rev: what the commit did.
func commitTrees(repo *git.Repository, objs *gittree.Objects, rev string) (parent, tree plumbing.Hash, err error) {
	h, err := resolve(repo, rev)
	if err != nil {
		return parent, tree, fmt.Errorf("revision %s: %w", rev, err)
	}
	c, err := readCommit(objs, *h)
	if err != nil {
		return parent, tree, err
	}
	if len(c.ParentHashes) > 0 {
		p, err := readCommit(objs, c.ParentHashes[0])
		if err != nil {
			return parent, tree, err
		}
		parent = p.TreeHash
	}
	return parent, c.TreeHash, nil
}

// treeHashOf is the tree of the commit rev names.
func treeHashOf(repo *git.Repository, objs *gittree.Objects, rev string) (plumbing.Hash, error) {
	h, err := resolve(repo, rev)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("revision %s: %w", rev, err)
	}
	c, err := readCommit(objs, *h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return c.TreeHash, nil
}

func orHEAD(rev string) string {
	if rev == "" {
		return "HEAD"
	}
	return rev
}

func commitOf(repo *git.Repository, rev string) (*object.Commit, error) {
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, fmt.Errorf("revision %s: %w", rev, err)
	}
	return repo.CommitObject(*h)
}

// treeOf is rev's tree; with unborn, a HEAD without commits is an empty tree
// (nil).
func treeOf(repo *git.Repository, rev string, unborn bool) (*object.Tree, error) {
	c, err := commitOf(repo, rev)
	if unborn && errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return c.Tree()
}

// storePrefix is the store folder's path inside the repository's work tree
// ("" when the store is the work tree's root).
func storePrefix(repo *git.Repository, dir string) (string, error) {
	wt, err := repo.Worktree()
	if err != nil {
		return "", fmt.Errorf("the repository of %s has no work tree: %w", dir, err)
	}
	root, err := realPath(wt.Filesystem.Root())
	if err != nil {
		return "", err
	}
	abs, err := realPath(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("the store %s is outside the work tree %s", dir, root)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r, nil
	}
	return abs, nil
}

// subtree is the tree at prefix in t (nil when t is nil or has no such
// folder).
func subtree(t *object.Tree, prefix string) (*object.Tree, error) {
	if t == nil || prefix == "" {
		return t, nil
	}
	s, err := t.Tree(prefix)
	if errors.Is(err, object.ErrDirectoryNotFound) {
		return nil, nil
	}
	return s, err
}

// treeChanges reads the record files that differ between two trees.
// Folders whose tree is the same on both sides are skipped without being
// read, so the cost grows with what changed, not with the store.
func treeChanges(objs *gittree.Objects, old, nw plumbing.Hash) ([]File, error) {
	var out []File
	err := gittree.DiffTrees(objs, old, nw, func(c gittree.Change) error {
		if RecordKind(c.Path) == "" {
			return nil
		}
		f := File{Path: c.Path}
		var err error
		if !c.Old.IsZero() {
			if f.Old, err = objs.ReadType(c.Old, plumbing.BlobObject); err != nil {
				return err
			}
		}
		if !c.New.IsZero() {
			if f.New, err = objs.ReadType(c.New, plumbing.BlobObject); err != nil {
				return err
			}
		}
		out = append(out, f)
		return nil
	})
	return out, err
}

func contents(f *object.File) ([]byte, error) {
	if f == nil {
		return nil, nil
	}
	return readAll(f.Reader())
}

// readAll reads what a git object's reader holds (never nil when it
// succeeds: an empty file is an empty slice, not an absent one).
func readAll(r io.ReadCloser, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if b == nil && err == nil {
		b = []byte{}
	}
	return b, err
}

// workTree compares the record files in the store folder dir with tree old.
func workTree(dir string, old *object.Tree) ([]File, error) {
	committed, err := recordFiles(old)
	if err != nil {
		return nil, err
	}
	var out []File
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if e.IsDir() {
			if e.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if RecordKind(rel) == "" {
			return nil
		}
		data, kept, err := workFile(p, e)
		if err != nil || !kept {
			return err
		}
		f := File{Path: rel, New: data}
		if c, ok := committed[rel]; ok {
			delete(committed, rel)
			if plumbing.ComputeHash(plumbing.BlobObject, data) == c.Hash {
				return nil
			}
			if f.Old, err = contents(c); err != nil {
				return err
			}
		}
		out = append(out, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for name, c := range committed {
		data, err := contents(c)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Path: name, Old: data})
	}
	return out, nil
}

// workFile is a work tree file as git keeps it: a regular file's bytes, a
// symlink's target path, so that an unchanged symlink equals its
// committed version. Anything else git does not keep (kept false).
func workFile(p string, e fs.DirEntry) (data []byte, kept bool, err error) {
	switch {
	case e.Type().IsRegular():
		data, err = os.ReadFile(p)
		return data, true, err
	case e.Type()&fs.ModeSymlink != 0:
		target, err := os.Readlink(p)
		return []byte(target), true, err
	}
	return nil, false, nil
}

// Staged reads the record files of the store in dir whose version in
// git's index (what `git add` staged) differs from HEAD's.
func Staged(dir string) ([]File, error) {
	repo, done, err := openRepo(dir)
	if err != nil {
		return nil, err
	}
	defer done()
	prefix, err := storePrefix(repo, dir)
	if err != nil {
		return nil, err
	}
	headT, err := treeOf(repo, "HEAD", true)
	if err != nil {
		return nil, err
	}
	old, err := subtree(headT, prefix)
	if err != nil {
		return nil, err
	}
	committed, err := recordFiles(old)
	if err != nil {
		return nil, err
	}
	idx, err := repo.Storer.Index()
	if err != nil {
		return nil, fmt.Errorf("reading git's index: %w", err)
	}
	var out []File
	for _, e := range idx.Entries {
		rel := e.Name
		if prefix != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(e.Name, prefix+"/"); !ok {
				continue
			}
		}
		if RecordKind(rel) == "" {
			continue
		}
		f := committed[rel]
		delete(committed, rel)
		if f != nil && f.Hash == e.Hash {
			continue
		}
		blob, err := repo.BlobObject(e.Hash)
		if err != nil {
			return nil, fmt.Errorf("%s: the staged version: %w", rel, err)
		}
		ch := File{Path: rel}
		if ch.New, err = readAll(blob.Reader()); err != nil {
			return nil, err
		}
		if ch.Old, err = contents(f); err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	for rel, f := range committed {
		ch := File{Path: rel}
		if ch.Old, err = contents(f); err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// recordFiles are the record files of tree t (none when t is nil), by
// store-relative path.
func recordFiles(t *object.Tree) (map[string]*object.File, error) {
	out := map[string]*object.File{}
	if t == nil {
		return out, nil
	}
	err := t.Files().ForEach(func(f *object.File) error {
		if RecordKind(f.Name) != "" {
			out[f.Name] = f
		}
		return nil
	})
	return out, err
}
