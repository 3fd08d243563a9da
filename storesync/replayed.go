package storesync

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/merge"
)

// followRebase makes the rest of the rebase in progress carry the ids
// renumbered so far: after each commit still to replay, `curator resolve
// --replayed COMMIT` redoes that commit's store files (see resolveReplayed).
func followRebase(state, exe, storeDir string) error {
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return fmt.Errorf("finding curator's own path for the rebase's todo list: %w", err)
		}
	}
	command := shellQuote(exe) + " --quiet --store " + shellQuote(storeDir) + " resolve --replayed"
	ok, err := FollowRenumbered(state, command)
	if err != nil {
		return fmt.Errorf("adding the renumbered ids to the rebase's todo list: %w", err)
	}
	if !ok {
		return fmt.Errorf("this rebase (git's apply backend) has no todo list, so its later commits would keep naming the old ids: abort it (`git rebase --abort`) and rebase with the merge backend (`git rebase --merge`, git's default), or merge with `git pull --no-rebase`")
	}
	return nil
}

// resolveReplayed redoes the store files of a commit that the rebase in
// progress has just replayed (HEAD) from its original (replayed): the
// original's change is merged onto HEAD's parent with the ids renumbered
// earlier in the rebase, and HEAD is amended when that differs from what
// git replayed. It runs from the exec lines followRebase adds.
func resolveReplayed(req ResolveRequest, tx *mdstore.Tx, repo *git.Repository, prefix string) (*ResolveReport, error) {
	replayed := req.Replayed
	rep := &ResolveReport{Operation: "rebase", Written: []string{}, Removed: []string{}, Renumbered: []merge.Renumber{},
		Conflicts: []merge.Conflict{}, Kept: []merge.Conflict{}, Unresolved: []string{}, ByHand: []string{}, Prefix: prefix}
	gitDir, err := gitDirOf(repo)
	if err != nil {
		return nil, err
	}
	state := RebaseState(gitDir)
	if state == "" {
		return nil, fmt.Errorf("--replayed runs inside a rebase: no rebase is in progress")
	}
	h, err := repo.ResolveRevision(plumbing.Revision(replayed))
	if err != nil {
		return nil, fmt.Errorf("the replayed commit %s: %w", replayed, err)
	}
	orig, err := repo.CommitObject(*h)
	if err != nil {
		return nil, err
	}
	headRef, err := repo.Head()
	if err != nil {
		return nil, fmt.Errorf("reading HEAD: %w", err)
	}
	head, err := repo.CommitObject(headRef.Hash())
	if err != nil {
		return nil, err
	}
	if orig.NumParents() != 1 || head.NumParents() != 1 {
		return rep, nil // a root or merge commit: git replayed it as it is
	}
	earlier, err := Renumbered(state)
	if err != nil {
		return nil, fmt.Errorf("reading the ids renumbered earlier in this rebase: %w", err)
	}
	if len(earlier) == 0 {
		return rep, nil
	}
	var reserved []plumbing.Hash
	if o := OrigHead(state); !o.IsZero() {
		reserved = append(reserved, o)
	}
	plan, err := Repo{Objects: repo.Storer, Prefix: prefix, Renumbered: earlier, Published: merge.Ours, Reserved: reserved}.
		PlanMerge(orig.ParentHashes[0], head.ParentHashes[0], orig.Hash)
	if err != nil {
		return nil, err
	}
	tree, err := head.Tree()
	if err != nil {
		return nil, err
	}
	run := mdstore.NewRun("resolve", tx.Store.Now())
	c := run.Changes
	for _, f := range plan.Settled {
		now, err := blobAt(tree, prefix+f.Path)
		if err != nil {
			return nil, err
		}
		if (now == nil) == (f.Data == nil) && bytes.Equal(now, f.Data) {
			continue
		}
		if f.Data == nil {
			c.Delete(f.Path)
		} else {
			c.Write(f.Path, f.Data)
		}
	}
	if err := KeepRenumbered(state, plan.Renumbered); err != nil {
		return nil, err
	}
	if len(plan.Renumbered) > 0 {
		if err := followRebase(state, req.Executable, tx.Store.Dir); err != nil {
			return nil, err
		}
	}
	rep.Renumbered = nonNil(plan.Renumbered)
	if c.Empty() {
		return rep, nil
	}
	for _, w := range c.Changes {
		if w.Delete {
			rep.Removed = append(rep.Removed, w.Path)
		} else {
			rep.Written = append(rep.Written, w.Path)
		}
	}
	if err := tx.SaveStaged(run, req.Save...); err != nil {
		return nil, err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, err
	}
	// The commit is git's own, made by the rebase: git amends it.
	cmd := exec.Command("git", "commit", "--amend", "--no-edit", "--no-verify", "--allow-empty", "-q")
	cmd.Dir = wt.Filesystem.Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("amending the replayed commit %s: %v: %s", orig.Hash.String()[:12], err, strings.TrimSpace(string(out)))
	}
	rep.CarriedInto = orig.Hash.String()[:12]
	return rep, nil
}

// blobAt is the content of the file at path in tree (nil: absent).
func blobAt(tree *object.Tree, path string) ([]byte, error) {
	f, err := tree.File(path)
	if err == object.ErrFileNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s, err := f.Contents()
	return []byte(s), err
}

// shellQuote quotes a word for the POSIX shell git runs exec lines with.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
