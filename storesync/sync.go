package storesync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/merge"
)

// SyncRequest is what one sync is asked to do.
type SyncRequest struct {
	// Remote and Branch name what to sync with: "" for the current
	// branch's remote (else origin) and the current branch.
	Remote, Branch string
	// Retries is how often to fetch and merge again when the remote moved
	// during the push; Backoff the first wait before that, doubled each
	// time.
	Retries int
	Backoff time.Duration
	// Timeout bounds each fetch and each push (0: no bound).
	Timeout time.Duration
	// AllowConflicts merges values both sides changed differently,
	// keeping ours and recording theirs.
	AllowConflicts bool
	// Tx and Save are the store transaction's options and its save's.
	Tx   mdstore.TxOptions
	Save []mdstore.SaveOption
	// Retrying, when set, is told of each push the remote refused because
	// it moved, before the wait.
	Retrying func(url string, wait time.Duration)
}

// The retries of a sync unless asked otherwise: how many, and the first
// wait.
const (
	DefaultRetries = 5
	DefaultBackoff = 200 * time.Millisecond
)

// Check refuses negative retries or timeout (refuse.ParamError).
func (r SyncRequest) Check() error {
	if r.Timeout < 0 {
		return refuse.Phrasef("timeout", "cannot be negative")
	}
	if r.Retries < 0 {
		return refuse.Phrasef("retries", "cannot be negative")
	}
	return nil
}

// SyncReport is what a sync did.
type SyncReport struct {
	Remote   string `json:"remote"`
	URL      string `json:"url"`
	Branch   string `json:"branch"`
	Result   string `json:"result"` // up-to-date, fast-forward, merge, blocked
	Commit   string `json:"commit,omitempty"`
	Pushed   bool   `json:"pushed"`
	Attempts int    `json:"attempts"`
	// TheirsRecords and OursRecords count the records each side changed
	// since the merge base; Both are the ids changed on both sides.
	TheirsRecords int              `json:"theirs_records"`
	OursRecords   int              `json:"ours_records"`
	Both          []string         `json:"both"`
	OutsideFiles  int              `json:"outside_files"`
	Renumbered    []merge.Renumber `json:"renumbered"`
	Conflicts     []merge.Conflict `json:"conflicts"`
	// Kept are records deleted on one side and changed (or moved) on the
	// other: kept with the change.
	Kept    []merge.Conflict `json:"kept"`
	Refused []string         `json:"refused,omitempty"`
	// Files is how many files the last merge planned to change; Theirs is
	// the remote's commit it merged and Prefix the store's folder in the
	// repository (for the command that shows theirs' version of a file).
	Files  int    `json:"-"`
	Theirs string `json:"-"`
	Prefix string `json:"-"`
}

// Blocked reports whether the sync refused to merge (nothing changed).
func (r *SyncReport) Blocked() bool { return r.Result == "blocked" }

// Sync fetches the remote's branch, merges it into the local one record by
// record (one merge commit, or a fast-forward) and pushes; when the push is
// refused because the remote moved, it fetches and merges again, up to
// Retries times. The store's lock is held only while the merge is planned
// and committed: fetches, pushes and the waits between attempts leave the
// store to other curator runs. ctx ending stops a fetch or push cleanly
// (ErrInterrupted). A refusal is a refuse.BlockedError with the report filled.
func Sync(ctx context.Context, s *mdstore.Store, req SyncRequest) (*SyncReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	root, prefix, err := s.RepoPlace()
	if err != nil {
		return nil, err
	}
	// A run killed earlier may have left git's lock files, which the fetch
	// would read as broken branches, or a half-saved run: the store's lock
	// finishes them before anything reads the repository.
	tx, err := s.Begin(req.Tx)
	if err != nil {
		return nil, err
	}
	tx.Close()
	repo, err := OpenRepository(s.Dir)
	if err != nil {
		return nil, err
	}
	rm, err := remoteOf(repo, req.Remote, req.Branch)
	if err != nil {
		return nil, err
	}
	rm.Context = ctx
	rep := &SyncReport{Remote: rm.Name, URL: rm.URL(), Branch: rm.Branch, Both: []string{}, Renumbered: []merge.Renumber{},
		Conflicts: []merge.Conflict{}, Kept: []merge.Conflict{}, Prefix: prefix}
	wait := req.Backoff
	for {
		rep.Attempts++
		if rep.Attempts > 1 {
			// A retry reads the repository afresh: the commit and the
			// fetch before it may have added packs.
			if rm.Repo, err = OpenRepository(s.Dir); err != nil {
				return nil, err
			}
		}
		err := syncOnce(req, s, rm, prefix, root, rep)
		if errors.Is(err, ErrRejected) && rep.Attempts > req.Retries {
			return nil, fmt.Errorf("%s/%s kept moving: the push was refused at each of %d attempts (--retries %d), someone pushed between each fetch and push; "+
				"your commits are kept here and nothing is lost: run `curator sync` again (or with a higher --retries) to merge the new commits and push",
				rm.Name, rm.Branch, rep.Attempts, req.Retries)
		}
		if !errors.Is(err, ErrRejected) {
			if err != nil && rep.Blocked() {
				return rep, refuse.Blocked(err)
			}
			if err != nil {
				return nil, err
			}
			return rep, nil
		}
		if req.Retrying != nil {
			req.Retrying(rm.URL(), wait)
		}
		time.Sleep(wait + time.Duration(rand.Int64N(int64(wait)/2+1)))
		wait *= 2
	}
}

// syncOnce is one fetch, merge and push; only the merge holds the lock.
func syncOnce(req SyncRequest, s *mdstore.Store, rm Remote, prefix, root string, rep *SyncReport) error {
	var theirs plumbing.Hash
	err := bounded(req.Timeout, &rm, func() (err error) {
		theirs, err = rm.Fetch()
		return err
	})
	if err != nil {
		return timedOut(err, req.Timeout, fmt.Sprintf("fetching %s from %s", rm.Branch, rm.URL()), "nothing was changed")
	}
	ours, err := mergeLocked(req, s, rm, theirs, prefix, root, rep)
	if err != nil || ours == theirs {
		return err
	}
	// The fetch and the commit may have written packs this go-git
	// repository has not listed: open it again for the push.
	if rm.Repo, err = OpenRepository(s.Dir); err != nil {
		return err
	}
	if err := bounded(req.Timeout, &rm, func() error { return rm.Push() }); err != nil {
		return timedOut(err, req.Timeout, fmt.Sprintf("pushing %s to %s", rm.Branch, rm.URL()),
			"your commits are kept here: the next `curator sync` pushes them")
	}
	rep.Pushed = true
	return nil
}

// mergeLocked plans the merge of theirs into the branch's tip as it is
// under the store's lock (another run may have committed since the fetch)
// and commits it; it returns the branch's new tip.
func mergeLocked(req SyncRequest, s *mdstore.Store, rm Remote, theirs plumbing.Hash, prefix, root string, rep *SyncReport) (plumbing.Hash, error) {
	tx, err := s.Begin(req.Tx)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer tx.Close()
	repo, err := OpenRepository(s.Dir)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	head, err := repo.Head()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("reading HEAD: %w", err)
	}
	ours := head.Hash()
	rep.Result = string(UpToDate)
	if theirs.IsZero() {
		return ours, nil
	}
	base, err := MergeBase(repo, ours, theirs)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if base.IsZero() {
		rep.Result = "blocked"
		return plumbing.ZeroHash, fmt.Errorf("%s/%s shares no history with %s: nothing was changed; join them once with `git pull --allow-unrelated-histories %s %s` (the merge driver merges the store's records), then sync",
			rm.Name, rm.Branch, rm.Branch, rm.Name, rm.Branch)
	}
	// The remote's records are published: ours' colliding new records are
	// the ones renumbered.
	plan, err := Repo{Objects: repo.Storer, Prefix: prefix, Published: merge.Theirs}.PlanMerge(base, ours, theirs)
	if errors.As(err, new(*merge.SideError)) {
		// A version that does not parse or is not a record.
		rep.Result = "blocked"
		return plumbing.ZeroHash, fmt.Errorf("%w; nothing was changed", err)
	}
	if err != nil {
		return plumbing.ZeroHash, err
	}
	rep.Result = string(plan.Kind)
	rep.Files, rep.Theirs = len(plan.Changes), plan.Theirs.String()
	rep.TheirsRecords, rep.OursRecords, rep.Both = plan.TheirsRecords, plan.OursRecords, nonNil(plan.Both)
	rep.Renumbered, rep.Conflicts, rep.Kept = nonNil(plan.Renumbered), nonNil(plan.Conflicts), nonNil(plan.Kept)
	rep.OutsideFiles = 0
	for _, c := range plan.Changes {
		if c.Outside {
			rep.OutsideFiles++
		}
	}
	if err := stopMerge(req, plan, s.Dir, root, rep); err != nil {
		rep.Result = "blocked"
		return plumbing.ZeroHash, err
	}
	if plan.Kind == UpToDate {
		return ours, nil
	}
	hash, err := tx.Save(mergeRun(s.Now(), rm, plan, prefix), req.Save...)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	rep.Commit = hash
	return plumbing.NewHash(hash), nil
}

// stopMerge stops a merge that would lose or overwrite something: files around
// the store that both sides changed, uncommitted edits in a file the merge
// changes, and (unless allowed) keys both sides changed differently.
func stopMerge(req SyncRequest, plan *Plan, storeDir, root string, rep *SyncReport) error {
	if len(plan.Outside) > 0 {
		rep.Refused = plan.Outside
		return fmt.Errorf("both sides changed %s outside the store (or they are not plain files); nothing was changed: merge with `git pull` (the merge driver merges the store's records), then `curator resolve` if git stops",
			list(plan.Outside))
	}
	var dirty []string
	for _, c := range plan.Changes {
		p := filepath.Join(storeDir, filepath.FromSlash(c.Path))
		if c.Outside {
			p = filepath.Join(root, filepath.FromSlash(c.Path))
		}
		cur, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			cur = nil
		} else if err != nil {
			return err
		}
		if (cur == nil) != (c.Ours == nil) || !bytes.Equal(cur, c.Ours) {
			dirty = append(dirty, c.Path)
		}
	}
	if len(dirty) > 0 {
		rep.Refused = dirty
		verb := "has"
		if len(dirty) > 1 {
			verb = "have"
		}
		return fmt.Errorf("%s %s uncommitted changes that the merge would overwrite; nothing was changed: commit or stash them, then sync again",
			list(dirty), verb)
	}
	if len(plan.Conflicts) > 0 && !req.AllowConflicts {
		var where []string
		for _, c := range plan.Conflicts {
			where = append(where, ConflictText(c))
		}
		return fmt.Errorf("both sides changed the same values differently; nothing was changed:\n  %s\n"+
			"merge anyway with --allow-conflicts (ours is kept; theirs is recorded under merge_conflicts, or between conflict\n"+
			"markers in a body, or left in its commit for a file that merges only whole), or with `git pull` to review them",
			strings.Join(where, "\n  "))
	}
	return nil
}

// mergeRun is the plan as a run: one merge commit (or a fast-forward)
// whose message lists what the merge decided.
func mergeRun(now time.Time, rm Remote, plan *Plan, prefix string) *mdstore.Run {
	from := rm.Name + "/" + rm.Branch
	var summary string
	if plan.Kind == FastForward {
		summary = fmt.Sprintf("sync: fast-forward to %s (%s)", from, plural(len(plan.Changes), "file", "files"))
	} else {
		summary = fmt.Sprintf("sync: merge %s (%s from theirs, %d merged from both sides, %d renumbered)",
			from, plural(plan.TheirsRecords, "record", "records"), len(plan.Both), len(plan.Renumbered))
	}
	run := mdstore.NewRun(summary, now)
	run.Commit.MergeParent = plan.Theirs.String()
	run.Commit.Tip = plan.Ours.String()
	run.Commit.FastForward = plan.Kind == FastForward
	for _, c := range plan.Changes {
		switch {
		case c.Outside && c.Data == nil:
			run.Changes.DeleteRoot(c.Path)
		case c.Outside:
			run.Changes.WriteRoot(c.Path, c.Data)
		case c.Data == nil:
			run.Changes.Delete(c.Path)
		default:
			run.Changes.Write(c.Path, c.Data)
		}
	}
	for _, id := range plan.Both {
		run.Decide("merged " + id + " (changed on both sides)")
	}
	for _, r := range plan.Renumbered {
		run.Decide(fmt.Sprintf("%s: both sides created %s, and %s/%s had published it", RenumberText(r), r.Old, rm.Name, rm.Branch))
	}
	for _, c := range plan.Kept {
		run.Decide(KeptText(c))
	}
	for _, c := range plan.Conflicts {
		run.Decide("conflict " + ConflictText(c) + " (" + Outcome(c, plan.Theirs.String(), prefix) + ")")
	}
	return run
}

// remoteOf chooses the remote and branch: the ones given, else the current
// branch and its configured remote, else origin.
func remoteOf(repo *git.Repository, name, branch string) (Remote, error) {
	if branch == "" {
		head, err := repo.Head()
		if err != nil {
			return Remote{}, fmt.Errorf("reading HEAD: %w", err)
		}
		if !head.Name().IsBranch() {
			return Remote{}, refuse.Request(errors.New("HEAD is detached: check out a branch or give --branch"))
		}
		branch = head.Name().Short()
	}
	if name == "" {
		name = "origin"
		if cfg, err := repo.Config(); err == nil {
			if b, ok := cfg.Branches[branch]; ok && b.Remote != "" && b.Remote != "." {
				name = b.Remote
			}
		}
	}
	if _, err := repo.Remote(name); err != nil {
		return Remote{}, refuse.Requestf("no git remote %q in this repository (add one with `git remote add %s URL`)", name, name)
	}
	return Remote{Repo: repo, Name: name, Branch: branch}, nil
}
