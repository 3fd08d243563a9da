package synccmd

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
	"github.com/curator-dev/curator/storesync"
)

// followRebase makes the rest of the rebase in progress carry the ids
// renumbered so far: after each commit still to replay, `curator resolve
// --replayed COMMIT` redoes that commit's store files (see resolveReplayed).
func followRebase(state, storeDir string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding curator's own path for the rebase's todo list: %w", err)
	}
	command := shellQuote(exe) + " --quiet --store " + shellQuote(storeDir) + " resolve --replayed"
	ok, err := storesync.FollowRenumbered(state, command)
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
func resolveReplayed(opts *ResolveOptions, tx *mdstore.Tx, repo *git.Repository, prefix, replayed string) error {
	gitDir, err := gitDirOf(repo)
	if err != nil {
		return err
	}
	state := storesync.RebaseState(gitDir)
	if state == "" {
		return fmt.Errorf("--replayed runs inside a rebase: no rebase is in progress")
	}
	h, err := repo.ResolveRevision(plumbing.Revision(replayed))
	if err != nil {
		return fmt.Errorf("the replayed commit %s: %w", replayed, err)
	}
	orig, err := repo.CommitObject(*h)
	if err != nil {
		return err
	}
	headRef, err := repo.Head()
	if err != nil {
		return fmt.Errorf("reading HEAD: %w", err)
	}
	head, err := repo.CommitObject(headRef.Hash())
	if err != nil {
		return err
	}
	if orig.NumParents() != 1 || head.NumParents() != 1 {
		return nil // a root or merge commit: git replayed it as it is
	}
	earlier, err := storesync.Renumbered(state)
	if err != nil {
		return fmt.Errorf("reading the ids renumbered earlier in this rebase: %w", err)
	}
	if len(earlier) == 0 {
		return nil
	}
	var reserved []plumbing.Hash
	if o := storesync.OrigHead(state); !o.IsZero() {
		reserved = append(reserved, o)
	}
	plan, err := storesync.Repo{Objects: repo.Storer, Prefix: prefix, Renumbered: earlier, Published: merge.Ours, Reserved: reserved}.
		PlanMerge(orig.ParentHashes[0], head.ParentHashes[0], orig.Hash)
	if err != nil {
		return err
	}
	tree, err := head.Tree()
	if err != nil {
		return err
	}
	c := &mdstore.Changeset{}
	for _, f := range plan.Settled {
		now, err := blobAt(tree, prefix+f.Path)
		if err != nil {
			return err
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
	if err := storesync.KeepRenumbered(state, plan.Renumbered); err != nil {
		return err
	}
	if len(plan.Renumbered) > 0 {
		if err := followRebase(state, tx.Store.Dir); err != nil {
			return err
		}
	}
	if c.Empty() {
		return nil
	}
	now := tx.Store.Now()
	info := mdstore.CommitInfo{Summary: "resolve", RunID: mdstore.NewRunID(now), At: now}
	if _, err := tx.Store.Save(c, info, mdstore.SaveOptions{NoCommit: true, Merged: true}); err != nil {
		return err
	}
	if err := tx.Store.Stage(c); err != nil {
		return fmt.Errorf("staging the replayed commit's files: %w", err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return err
	}
	// The commit is git's own, made by the rebase: git amends it.
	cmd := exec.Command("git", "commit", "--amend", "--no-edit", "--no-verify", "--allow-empty", "-q")
	cmd.Dir = wt.Filesystem.Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("amending the replayed commit %s: %v: %s", orig.Hash.String()[:12], err, strings.TrimSpace(string(out)))
	}
	for _, r := range plan.Renumbered {
		opts.Say("  %s\n", renumberText(r))
	}
	opts.Say("carried the renumbered ids into %s\n", orig.Hash.String()[:12])
	return nil
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
