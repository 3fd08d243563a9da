package storesync

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/curator-dev/curator/internal/gittree"
	"github.com/curator-dev/curator/merge"
)

// Kind is what a sync has to do.
type Kind string

// The kinds of plan.
const (
	UpToDate    Kind = "up-to-date"   // theirs is ours or behind it: nothing to merge
	FastForward Kind = "fast-forward" // ours is behind theirs: take theirs' files
	Merged      Kind = "merge"        // both moved: a merge commit
)

// FileChange is one file a plan changes in ours' tree. Data nil deletes it.
type FileChange struct {
	// Path is store-relative, or relative to the work tree's root when
	// Outside is set.
	Path    string
	Outside bool
	Data    []byte
	// Ours is the file's content in ours' tree (nil: absent), which the
	// work-tree file must still hold for the change to be applied safely.
	Ours []byte
}

// Plan is a merge of theirs into ours, computed from the commits alone.
type Plan struct {
	Kind               Kind
	Base, Ours, Theirs plumbing.Hash
	Changes            []FileChange
	// Settled is every store file either side changed, as the merge
	// leaves it (those equal to ours included), for finishing a merge git
	// began.
	Settled []FileChange
	// Conflicts are the store's keys and bodies that differ on both sides
	// (ours kept, theirs recorded in the file).
	Conflicts []merge.Conflict
	// Kept are records deleted on one side and changed or moved on the
	// other, kept with the change: decisions, listed, not conflicts.
	Kept []merge.Conflict
	// Renumbered are the unpublished side's new records that got fresh
	// ids because the published side holds others under the same ids.
	Renumbered []merge.Renumber
	// Outside are paths outside the store that both sides changed
	// differently, or that are not plain files: git pull merges them.
	Outside []string
	// OursRecords and TheirsRecords count the store's records each side
	// changed; Both are the ids of those changed on both sides.
	OursRecords, TheirsRecords int
	Both                       []string
}

// Repo is what planning reads: git's objects and the store's place in the
// work tree.
type Repo struct {
	Objects storer.EncodedObjectStorer
	// Prefix is the store folder relative to the work tree root, with a
	// trailing slash ("" when the store is the root).
	Prefix string
	// Renumbered are ids that earlier steps of the same rebase gave to
	// records of the commits being replayed: the base and theirs take
	// them before merging (see merge.Rename).
	Renumbered []merge.Renumber
	// Published is the side whose ids never change (see
	// merge.TreeOptions): Theirs when merging what a remote holds.
	Published merge.Side
	// Reserved are commits whose store records count as taken when a
	// colliding record gets a fresh id (in a rebase, the tip being
	// replayed: its later commits create records of their own).
	Reserved []plumbing.Hash
	// ByHand are store-relative paths a person settled in the work tree
	// (resolve found them staged with no conflict left): they are left
	// out of the merge and kept as they are.
	ByHand map[string]bool

	raw *gittree.Objects // Objects read as bytes, while a plan is made
}

// PlanMerge plans merging commit theirs into ours. base is their merge
// base (zero when they share no history).
func (r Repo) PlanMerge(base, ours, theirs plumbing.Hash) (*Plan, error) {
	p := &Plan{Base: base, Ours: ours, Theirs: theirs}
	r.raw = gittree.OpenObjects(storageDir(r.Objects), r.Objects)
	defer r.raw.Close()
	switch {
	case theirs == ours || theirs == base:
		p.Kind = UpToDate
		return p, nil
	case ours == base:
		p.Kind = FastForward
	default:
		p.Kind = Merged
	}
	bt, err := r.tree(base)
	if err != nil {
		return nil, err
	}
	ot, err := r.tree(ours)
	if err != nil {
		return nil, err
	}
	tt, err := r.tree(theirs)
	if err != nil {
		return nil, err
	}
	dOurs, err := r.changes(bt, ot)
	if err != nil {
		return nil, err
	}
	dTheirs, err := r.changes(bt, tt)
	if err != nil {
		return nil, err
	}
	if p.Kind == FastForward {
		keys := map[string]bool{}
		for _, path := range sortedKeys(dTheirs) {
			if err := r.fastForward(p, dTheirs[path]); err != nil {
				return nil, err
			}
			if k, ok := merge.RecordKey(strings.TrimPrefix(path, r.Prefix)); ok && r.inStore(path) {
				keys[k] = true
			}
		}
		p.TheirsRecords = len(keys)
		return p, nil
	}
	if err := r.outside(p, dOurs, dTheirs); err != nil {
		return nil, err
	}
	if err := r.store(p, dOurs, dTheirs, []plumbing.Hash{bt, ot, tt}); err != nil {
		return nil, err
	}
	return p, nil
}

// fastForward takes one of theirs' changes as it is.
func (r Repo) fastForward(p *Plan, c gittree.Change) error {
	rel, inStore := strings.CutPrefix(c.Path, r.Prefix)
	if !plainFile(c) {
		p.Outside = append(p.Outside, c.Path)
		return nil
	}
	fc := FileChange{Path: rel, Outside: !inStore}
	if fc.Outside {
		fc.Path = c.Path
	}
	var err error
	if fc.Ours, err = r.blob(c.Old); err != nil {
		return err
	}
	if fc.Data, err = r.blob(c.New); err != nil {
		return err
	}
	p.Changes = append(p.Changes, fc)
	return nil
}

// outside applies git's rule to the files around the store: a path only
// theirs changed takes theirs; a path both changed the same way is left; a
// path both changed differently is named in p.Outside.
func (r Repo) outside(p *Plan, dOurs, dTheirs map[string]gittree.Change) error {
	for _, path := range sortedKeys(dTheirs) {
		if r.inStore(path) {
			continue
		}
		t := dTheirs[path]
		if o, both := dOurs[path]; both {
			if o.New != t.New || o.NewMode != t.NewMode {
				p.Outside = append(p.Outside, path)
			}
			continue
		}
		if !plainFile(t) {
			p.Outside = append(p.Outside, path)
			continue
		}
		fc := FileChange{Path: path, Outside: true}
		var err error
		if fc.Ours, err = r.blob(t.Old); err != nil {
			return err
		}
		if fc.Data, err = r.blob(t.New); err != nil {
			return err
		}
		p.Changes = append(p.Changes, fc)
	}
	return nil
}

// plainFile reports whether both versions of a change are plain files
// (or absent): sync writes no symlinks, submodules or executables.
func plainFile(c gittree.Change) bool {
	ok := func(h plumbing.Hash, m filemode.FileMode) bool { return h.IsZero() || m == filemode.Regular }
	return ok(c.Old, c.OldMode) && ok(c.New, c.NewMode)
}

func (r Repo) inStore(path string) bool { return strings.HasPrefix(path, r.Prefix) }

// changes lists the files that differ between two trees, by path.
func (r Repo) changes(old, nw plumbing.Hash) (map[string]gittree.Change, error) {
	out := map[string]gittree.Change{}
	err := gittree.DiffTrees(r.raw, old, nw, func(c gittree.Change) error {
		out[c.Path] = c
		return nil
	})
	return out, err
}

// tree is the tree of commit h (zero for the zero commit).
func (r Repo) tree(h plumbing.Hash) (plumbing.Hash, error) {
	if h.IsZero() {
		return h, nil
	}
	t, err := r.raw.CommitTree(h)
	if err != nil {
		return t, fmt.Errorf("reading commit %s: %w", h, err)
	}
	return t, nil
}

// blob reads a blob (nil for the zero hash: an absent file).
func (r Repo) blob(h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	data, err := r.raw.ReadType(h, plumbing.BlobObject)
	if err != nil {
		return nil, fmt.Errorf("reading blob %s: %w", h, err)
	}
	return data, nil
}

// storageDir is the git folder of a repository's storage ("" when it is not
// a folder: every object is then read through the storage).
func storageDir(st storer.EncodedObjectStorer) string {
	if fs, ok := st.(*filesystem.Storage); ok {
		return fs.Filesystem().Root()
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
