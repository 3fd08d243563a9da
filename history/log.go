package history

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/curator-dev/curator/internal/refuse"
)

// Query chooses the runs of a log.
type Query struct {
	// Kind keeps the runs of one kind ("" all).
	Kind string
	// Since and Until bound the commit time (zero: open).
	Since, Until time.Time
	// Limit is the most runs returned (0: no limit).
	Limit int
	// All lists the commits curator did not make too.
	All bool
	// Rev is where the log starts ("" HEAD).
	Rev string
}

// Check refuses a kind that is not one of Kinds and a negative limit
// (refuse.ParamError).
func (q Query) Check() error {
	if q.Kind != "" && !slices.Contains(Kinds, q.Kind) {
		return refuse.Phrasef("kind", "%q: want one of %s", q.Kind, strings.Join(Kinds, ", "))
	}
	if q.Limit < 0 {
		return refuse.Phrasef("limit", "cannot be negative")
	}
	return nil
}

// Log lists the runs of the repository holding dir, newest first along
// first parents from q.Rev, as q chooses.
func Log(dir string, q Query) ([]Run, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	repo, done, err := openRepo(dir)
	if err != nil {
		return nil, err
	}
	defer done()
	rev := q.Rev
	if rev == "" {
		rev = "HEAD"
	}
	h, err := resolve(repo, rev)
	if errors.Is(err, plumbing.ErrReferenceNotFound) && q.Rev == "" {
		return nil, nil // no commit yet
	}
	if err != nil {
		return nil, fmt.Errorf("revision %s: %w", rev, err)
	}
	objs := objectsOf(repo)
	defer objs.Close()
	c, err := readCommit(objs, *h)
	if err != nil {
		return nil, err
	}
	var out []Run
	for c != nil {
		when := c.Committer.When
		if !q.Since.IsZero() && when.Before(q.Since) {
			break // first parents go back in time
		}
		if q.Until.IsZero() || !when.After(q.Until) {
			if r, ok := keep(c, q); ok {
				out = append(out, r)
				if q.Limit > 0 && len(out) >= q.Limit {
					break
				}
			}
		}
		if c.NumParents() == 0 {
			break
		}
		if c, err = readCommit(objs, c.ParentHashes[0]); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return out, err
		}
	}
	return out, nil
}

// RunAt is the run that commit rev records (RunID "" for a commit curator
// did not make).
func RunAt(dir, rev string) (Run, error) {
	repo, done, err := openRepo(dir)
	if err != nil {
		return Run{}, err
	}
	defer done()
	c, err := commitOf(repo, rev)
	if err != nil {
		return Run{}, err
	}
	r, _ := keep(c, Query{All: true})
	return r, nil
}

// keep is the run of commit c when q lists it.
func keep(c *object.Commit, q Query) (Run, bool) {
	r := ParseMessage(c.Message)
	if r.RunID == "" && !q.All {
		return r, false
	}
	if q.Kind != "" && r.Kind != q.Kind {
		return r, false
	}
	r.Commit, r.Time, r.Author = c.Hash.String(), c.Committer.When.UTC(), c.Author.Name
	return r, true
}

// openRepo opens the repository holding dir for reading many objects:
// its pack files stay open between reads (go-git otherwise opens a pack
// again for every object). done closes them.
func openRepo(dir string) (*git.Repository, func(), error) {
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, nil, fmt.Errorf("opening the git repository of %s: %w", dir, err)
	}
	fsStore, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return r, func() {}, nil
	}
	st := filesystem.NewStorageWithOptions(fsStore.Filesystem(), cache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
	var work billy.Filesystem
	if w, err := r.Worktree(); err == nil {
		work = w.Filesystem
	}
	kept, err := git.Open(st, work)
	if err != nil {
		return r, func() {}, nil
	}
	return kept, func() { st.Close() }, nil
}
