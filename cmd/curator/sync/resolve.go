package synccmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/merge"
	"github.com/curator-dev/curator/storesync"
)

// ResolveOptions are what `curator resolve` was asked to do.
type ResolveOptions struct {
	cmdutil.Env
	// Replayed is the original of the commit a rebase has just replayed,
	// for the exec lines resolve adds to the rebase's todo list.
	Replayed string
}

// NewResolveCmd builds `curator resolve`; runF replaces the run in tests.
func NewResolveCmd(f *cmdutil.Factory, runF func(*ResolveOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "resolve",
		Usage: "finish a git merge or rebase that stopped on the store's files",
		Description: "git runs curator's merge driver one file at a time, so it cannot give a colliding new id a\n" +
			"second file or settle a record that git sees renamed two ways (promoted here, trashed there);\n" +
			"there git stops with the paths marked. `curator resolve` merges the store again from the three\n" +
			"commits (the merge base, HEAD, and MERGE_HEAD — or, in a rebase or cherry-pick, the commit being\n" +
			"replayed and its parent) with the same rules as `curator sync`, writes every store file either\n" +
			"side changed, and stages them. Then `git commit` (or `git rebase --continue`) finishes. Values\n" +
			"both sides changed differently keep ours, with theirs recorded under merge_conflicts for review.\n" +
			"Paths outside the store that git left conflicted are listed (exit 3): resolve them by hand.\n" +
			"A store file that does not parse on one side stops resolve (exit 3, nothing written) until you\n" +
			"write the version you want and `git add` it; then resolve keeps it as staged and merges the rest.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "replayed", Hidden: true, Usage: "inside a rebase: redo the store files of the commit just replayed from this original"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cmdutil.Usagef("resolve takes no arguments")
			}
			opts := &ResolveOptions{Env: f.Env(c), Replayed: c.String("replayed")}
			if runF != nil {
				return runF(opts)
			}
			return Resolve(opts)
		},
	}
}

// ResolveReport is what resolve did (printed with --json).
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
}

// Resolve merges the store's files of the merge in progress and stages
// them.
func Resolve(opts *ResolveOptions) error {
	tx, place, err := open(opts.Env)
	if err != nil {
		return err
	}
	defer tx.Close()
	prefix, repo := place.prefix, place.repo
	if opts.Replayed != "" {
		return resolveReplayed(opts, tx, repo, prefix, opts.Replayed)
	}
	op, base, ours, theirs, err := inProgress(repo)
	if err != nil {
		return err
	}
	gitDir, err := gitDirOf(repo)
	if err != nil {
		return err
	}
	state := ""
	if op == "rebase" {
		state = storesync.RebaseState(gitDir)
	}
	earlier, err := storesync.Renumbered(state)
	if err != nil {
		return fmt.Errorf("reading the ids renumbered earlier in this rebase: %w", err)
	}
	// A rebase replays local commits (theirs) onto what it rebases onto:
	// the replayed records are the unpublished ones. A merge asks which
	// side a remote-tracking branch already holds.
	published := merge.Ours
	if op != "rebase" {
		if published, err = storesync.PublishedSide(repo, ours, theirs); err != nil {
			return fmt.Errorf("reading which side a remote already holds: %w", err)
		}
	}
	var reserved []plumbing.Hash
	if h := storesync.OrigHead(state); !h.IsZero() {
		reserved = append(reserved, h)
	}
	sr := storesync.Repo{Objects: repo.Storer, Prefix: prefix, Renumbered: earlier, Published: published, Reserved: reserved}
	plan, byHand, err := planResolve(repo, sr, op, base, ours, theirs)
	if err != nil {
		return err
	}
	rep := &ResolveReport{Operation: op, Written: []string{}, Removed: []string{}, ByHand: byHand,
		Renumbered: nonNil(plan.Renumbered), Conflicts: nonNil(plan.Conflicts), Kept: nonNil(plan.Kept)}
	c := &mdstore.Changeset{}
	for _, f := range plan.Settled {
		if f.Data == nil {
			c.Delete(f.Path)
			rep.Removed = append(rep.Removed, f.Path)
		} else {
			c.Write(f.Path, f.Data)
			rep.Written = append(rep.Written, f.Path)
		}
	}
	if !c.Empty() {
		now := tx.Store.Now()
		info := mdstore.CommitInfo{Summary: "resolve", RunID: mdstore.NewRunID(now), At: now}
		if _, err := tx.Store.Save(c, info, mdstore.SaveOptions{NoCommit: true, Merged: true}); err != nil {
			return err
		}
		if err := tx.Store.Stage(c); err != nil {
			return fmt.Errorf("staging the resolved files: %w", err)
		}
	}
	if err := storesync.KeepRenumbered(state, plan.Renumbered); err != nil {
		return err
	}
	if state != "" && len(plan.Renumbered) > 0 {
		if err := followRebase(state, tx.Store.Dir); err != nil {
			return err
		}
	}
	if rep.Unresolved, err = unresolved(repo, prefix); err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		opts.Say("resolved the %s: %s of the store written, %d removed, all staged\n", op,
			cmdutil.Plural(len(rep.Written), "file", "files"), len(rep.Removed))
		for _, p := range rep.ByHand {
			opts.Say("  kept %s as settled by hand (staged)\n", p)
		}
		for _, r := range rep.Renumbered {
			opts.Say("  %s\n", renumberText(r))
		}
		for _, k := range rep.Kept {
			opts.Say("  %s\n", keptText(k))
		}
		for _, cf := range rep.Conflicts {
			opts.Warn("curator resolve: review %s (%s)\n", conflictText(cf), outcome(cf, theirs.String(), prefix))
		}
	}
	if d, err := cmdutil.ReadMergeDriver(tx.Store.Dir); err == nil && d.Command != "" && !d.Found {
		opts.Warn("curator resolve: git could not run the merge driver: merge.curator.driver runs %s, which is not on PATH (or not an executable file), "+
			"so git left each store file both sides changed as ours, whole, marked conflicted; resolve has merged them. "+
			"So that git merges them itself next time, run `curator init --merge-driver` (it registers the path of the curator it runs as), or put curator on PATH\n",
			d.Program)
	}
	if len(rep.Unresolved) > 0 {
		return cmdutil.Blocked(fmt.Errorf("still conflicted outside the store: %s; resolve them by hand and `git add` them", list(rep.Unresolved)))
	}
	if !opts.Globals.JSON {
		next := "git commit"
		if op == "rebase" {
			next = "git rebase --continue"
		} else if op == "cherry-pick" {
			next = "git cherry-pick --continue"
		}
		opts.Say("next: %s\n", next)
	}
	return nil
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
		b, err := storesync.MergeBase(repo, ours, h)
		return "merge", b, ours, h, err
	}
	for _, f := range []struct{ file, op string }{{"REBASE_HEAD", "rebase"}, {"CHERRY_PICK_HEAD", "cherry-pick"}} {
		h, ok := read(f.file)
		if !ok || f.op == "rebase" && storesync.RebaseState(gitDir) == "" {
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
	return storesync.GitDir(wt.Filesystem.Root()), nil
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
func planResolve(repo *git.Repository, sr storesync.Repo, op string, base, ours, theirs plumbing.Hash) (*storesync.Plan, []string, error) {
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
			return nil, nil, cmdutil.Blocked(unparsedSide(repo, op, se, gitPath, base))
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
