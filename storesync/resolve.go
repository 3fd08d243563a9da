package storesync

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/merge"
)

// ResolveRequest is what one resolve is asked to do.
type ResolveRequest struct {
	// Replayed is the original of the commit a rebase has just replayed,
	// for the exec lines resolve adds to the rebase's todo list.
	Replayed string
	// Executable is the curator program those exec lines run.
	Executable string
	// Tx and Save are the store transaction's options and its save's.
	Tx   mdstore.TxOptions
	Save []mdstore.SaveOption
}

// ResolveReport is what resolve did.
type ResolveReport struct {
	// Operation is merge, rebase or cherry-pick.
	Operation  string           `json:"operation"`
	Written    []string         `json:"written"`
	Removed    []string         `json:"removed"`
	Renumbered []merge.Renumber `json:"renumbered"`
	Conflicts  []merge.Conflict `json:"conflicts"`
	// Kept are records deleted on one side and changed (or moved) on the
	// other: kept with the change.
	Kept []merge.Conflict `json:"kept"`
	// Unresolved are paths outside the store git still marks conflicted.
	Unresolved []string `json:"unresolved"`
	// ByHand are store files that do not parse on one side and that the
	// user settled and staged: taken as they are.
	ByHand []string `json:"settled_by_hand"`
	// CarriedInto is the replayed commit whose store files were redone
	// with the ids renumbered earlier in the rebase (with Replayed).
	CarriedInto string `json:"carried_into,omitempty"`
	// Theirs is the commit merged in and Prefix the store's folder in the
	// repository (for the command that shows theirs' version of a file).
	Theirs string `json:"-"`
	Prefix string `json:"-"`
	// DriverMissing is the program of the merge driver the repository
	// registers (merge.curator.driver) when git cannot run it ("" when it
	// can, or none is registered): git then left every store file both
	// sides changed as ours, whole, and resolve merged them instead.
	DriverMissing string `json:"-"`
}

// Next is the git command that finishes the operation.
func (r *ResolveReport) Next() string {
	switch r.Operation {
	case "rebase":
		return "git rebase --continue"
	case "cherry-pick":
		return "git cherry-pick --continue"
	}
	return "git commit"
}

// Resolve merges the store's files of the merge, rebase or cherry-pick git
// stopped on, from its three commits with sync's rules, writes them and
// stages them. Paths outside the store that git still marks conflicted
// are a refuse.BlockedError, with the report filled. The report says
// when git could not run the registered merge driver (DriverMissing).
func Resolve(s *mdstore.Store, req ResolveRequest) (*ResolveReport, error) {
	rep, err := resolve(s, req)
	if rep != nil {
		if d, derr := ReadMergeDriver(s.Dir); derr == nil && d.Command != "" && !d.Found {
			rep.DriverMissing = d.Program
		}
	}
	return rep, err
}

// resolve is Resolve but for the merge driver's check.
func resolve(s *mdstore.Store, req ResolveRequest) (*ResolveReport, error) {
	tx, err := s.Begin(req.Tx)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	_, prefix, err := s.RepoPlace()
	if err != nil {
		return nil, err
	}
	repo, err := OpenRepository(s.Dir)
	if err != nil {
		return nil, err
	}
	if req.Replayed != "" {
		return resolveReplayed(req, tx, repo, prefix)
	}
	op, base, ours, theirs, err := inProgress(repo)
	if err != nil {
		return nil, err
	}
	gitDir, err := gitDirOf(repo)
	if err != nil {
		return nil, err
	}
	state := ""
	if op == "rebase" {
		state = RebaseState(gitDir)
	}
	earlier, err := Renumbered(state)
	if err != nil {
		return nil, fmt.Errorf("reading the ids renumbered earlier in this rebase: %w", err)
	}
	// A rebase replays local commits (theirs) onto what it rebases onto:
	// the replayed records are the unpublished ones. A merge asks which
	// side a remote-tracking branch already holds.
	published := merge.Ours
	if op != "rebase" {
		if published, err = PublishedSide(repo, ours, theirs); err != nil {
			return nil, fmt.Errorf("reading which side a remote already holds: %w", err)
		}
	}
	var reserved []plumbing.Hash
	if h := OrigHead(state); !h.IsZero() {
		reserved = append(reserved, h)
	}
	sr := Repo{Objects: repo.Storer, Prefix: prefix, Renumbered: earlier, Published: published, Reserved: reserved}
	plan, byHand, err := planResolve(repo, sr, op, base, ours, theirs)
	if err != nil {
		return nil, err
	}
	rep := &ResolveReport{Operation: op, Written: []string{}, Removed: []string{}, ByHand: byHand,
		Renumbered: nonNil(plan.Renumbered), Conflicts: nonNil(plan.Conflicts), Kept: nonNil(plan.Kept),
		Theirs: theirs.String(), Prefix: prefix}
	run := mdstore.NewRun("resolve", s.Now())
	for _, f := range plan.Settled {
		if f.Data == nil {
			run.Changes.Delete(f.Path)
			rep.Removed = append(rep.Removed, f.Path)
		} else {
			run.Changes.Write(f.Path, f.Data)
			rep.Written = append(rep.Written, f.Path)
		}
	}
	if err := tx.SaveStaged(run, req.Save...); err != nil {
		return nil, err
	}
	if err := KeepRenumbered(state, plan.Renumbered); err != nil {
		return nil, err
	}
	if state != "" && len(plan.Renumbered) > 0 {
		if err := followRebase(state, req.Executable, s.Dir); err != nil {
			return nil, err
		}
	}
	if rep.Unresolved, err = unresolved(repo, prefix); err != nil {
		return nil, err
	}
	if len(rep.Unresolved) > 0 {
		return rep, refuse.Blocked(fmt.Errorf("still conflicted outside the store: %s; resolve them by hand and `git add` them", list(rep.Unresolved)))
	}
	return rep, nil
}

// inProgress finds the merge git stopped on: its kind and the three
// commits of the store's merge.
func inProgress(repo *git.Repository) (op string, base, ours, theirs plumbing.Hash, err error) {
	gitDir, err := gitDirOf(repo)
	if err != nil {
		return "", base, ours, theirs, err
	}
	head, err := repo.Head()
	if err != nil {
		return "", base, ours, theirs, fmt.Errorf("reading HEAD: %w", err)
	}
	ours = head.Hash()
	read := func(name string) (plumbing.Hash, bool) {
		b, err := os.ReadFile(filepath.Join(gitDir, name))
		if err != nil {
			return plumbing.ZeroHash, false
		}
		return plumbing.NewHash(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])), true
	}
	if h, ok := read("MERGE_HEAD"); ok {
		b, err := MergeBase(repo, ours, h)
		return "merge", b, ours, h, err
	}
	for _, f := range []struct{ file, op string }{{"REBASE_HEAD", "rebase"}, {"CHERRY_PICK_HEAD", "cherry-pick"}} {
		h, ok := read(f.file)
		if !ok || f.op == "rebase" && RebaseState(gitDir) == "" {
			continue // git leaves REBASE_HEAD behind after a rebase ends
		}
		c, err := repo.CommitObject(h)
		if err != nil {
			return "", base, ours, theirs, err
		}
		if c.NumParents() > 0 {
			base = c.ParentHashes[0]
		}
		return f.op, base, ours, h, nil
	}
	return "", base, ours, theirs, errors.New("no git merge, rebase or cherry-pick is in progress: nothing to resolve")
}

// gitDirOf is the repository's own git folder (a linked worktree's, where
// MERGE_HEAD and REBASE_HEAD live).
func gitDirOf(repo *git.Repository) (string, error) {
	wt, err := repo.Worktree()
	if err != nil {
		return "", err
	}
	return GitDir(wt.Filesystem.Root()), nil
}

// unresolved lists the paths outside the store that the index still holds
// in conflict stages.
func unresolved(repo *git.Repository, prefix string) ([]string, error) {
	idx, err := repo.Storer.Index()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := []string{}
	for _, e := range idx.Entries {
		if e.Stage != 0 && !seen[e.Name] && !strings.HasPrefix(e.Name, prefix) {
			seen[e.Name] = true
			out = append(out, e.Name)
		}
	}
	return out, nil
}

// planResolve plans the store's merge. A store file that does not parse on
// one side cannot be merged: when the index holds it with no conflict left
// (the user settled it and ran git add), it is kept as it is and the rest
// is merged; while it is still conflicted, resolve stops, writing nothing,
// and says how to settle it.
func planResolve(repo *git.Repository, sr Repo, op string, base, ours, theirs plumbing.Hash) (*Plan, []string, error) {
	sr.ByHand = map[string]bool{}
	byHand := []string{}
	for {
		plan, err := sr.PlanMerge(base, ours, theirs)
		var se *merge.SideError
		if err == nil || !errors.As(err, &se) || sr.ByHand[se.Path] {
			return plan, byHand, err
		}
		gitPath := sr.Prefix + se.Path
		settled, ierr := settledInIndex(repo, gitPath)
		if ierr != nil {
			return nil, nil, ierr
		}
		if !settled {
			return nil, nil, refuse.Blocked(unparsedSide(repo, op, se, gitPath, base))
		}
		sr.ByHand[se.Path] = true
		byHand = append(byHand, gitPath)
	}
}

// settledInIndex reports whether git's index holds path without conflict
// stages (staged by hand, or removed).
func settledInIndex(repo *git.Repository, path string) (bool, error) {
	idx, err := repo.Storer.Index()
	if err != nil {
		return false, fmt.Errorf("reading git's index: %w", err)
	}
	for _, e := range idx.Entries {
		if e.Name == path && e.Stage != 0 {
			return false, nil
		}
	}
	return true, nil
}

// unparsedSide says which version of a file does not parse and how to
// settle it by hand.
func unparsedSide(repo *git.Repository, op string, se *merge.SideError, gitPath string, base plumbing.Hash) error {
	theirsRef := map[string]string{"merge": "MERGE_HEAD", "rebase": "REBASE_HEAD", "cherry-pick": "CHERRY_PICK_HEAD"}[op]
	ref := map[string]string{"ours": "HEAD", "theirs": theirsRef, "base": base.String()[:12]}[se.Side]
	shown := gitPath
	if wt, err := repo.Worktree(); err == nil {
		if cwd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(cwd, filepath.Join(wt.Filesystem.Root(), filepath.FromSlash(gitPath))); err == nil {
				shown = filepath.ToSlash(rel)
			}
		}
	}
	side := map[string]string{"ours": "ours'", "theirs": "theirs'", "base": "the merge base's"}[se.Side]
	return fmt.Errorf("%s: %s version (%s) does not parse: %v; nothing was written.\n"+
		"Settle this file by hand: write the version you want to %s (`git show HEAD:%s` is ours, `git show %s:%s` theirs),\n"+
		"then `git add %s` and run `curator resolve` again: it keeps the file as you staged it and merges the rest",
		gitPath, side, ref, se.Err, shown, gitPath, theirsRef, gitPath, shown)
}
