package synccmd

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/merge"
	"github.com/curator-dev/curator/storesync"
)

// Options are what `curator sync` was asked to do.
type Options struct {
	cmdutil.Env
	Remote         string
	Branch         string
	Retries        int
	AllowConflicts bool
	// Backoff is the first wait before fetching again after a rejected
	// push; it doubles each time.
	Backoff time.Duration
}

// NewCmd builds `curator sync`; runF replaces the run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "sync",
		Usage:     "fetch a git remote, merge its store record by record, push",
		ArgsUsage: "[REMOTE]",
		Description: "Shares the store with other clones through an ordinary git remote (REMOTE: default the\n" +
			"branch's remote, else origin). It fetches the branch (--branch, default the current one),\n" +
			"merges it into the local branch with curator's record-level merge — counters add both sides'\n" +
			"increments, lists join, timestamps take the later, new records with the same id get fresh ids\n" +
			"with their references, a record moved two ways ends in one folder — as one merge commit\n" +
			"(or a fast-forward), and pushes. When the push is refused because the remote moved meanwhile,\n" +
			"it fetches and merges again, up to --retries times with a growing wait.\n\n" +
			"Files outside the store are taken from the remote when only the remote changed them. Sync\n" +
			"refuses, before changing anything (exit 3), when both sides changed one such file differently,\n" +
			"when a file it would change has uncommitted edits, or when both sides gave one key of a record\n" +
			"different values (it names the records and keys); --allow-conflicts merges anyway, keeping\n" +
			"ours and recording theirs under merge_conflicts in the record for review. `git pull` with the\n" +
			"merge driver `curator init` registers, then `curator resolve`, is the manual way.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "branch", Usage: "the branch to sync (the same name on the remote; default: the current branch)"},
			&cli.IntFlag{Name: "retries", Value: 5, Usage: "how often to fetch and merge again when the remote moved during the push"},
			&cli.BoolFlag{Name: "allow-conflicts", Usage: "merge even when both sides changed one key differently: keep ours, record theirs under merge_conflicts"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cmdutil.Usagef("sync takes at most one remote")
			}
			opts := &Options{Env: f.Env(c), Remote: c.Args().First(), Branch: c.String("branch"),
				Retries: c.Int("retries"), AllowConflicts: c.Bool("allow-conflicts"), Backoff: 200 * time.Millisecond}
			if opts.Retries < 0 {
				return cmdutil.Usagef("--retries cannot be negative")
			}
			if opts.Globals.NoCommit {
				return cmdutil.Usagef("sync records its merge as a commit; --no-commit does not apply")
			}
			if runF != nil {
				return runF(opts)
			}
			return Sync(opts)
		},
	}
}

// Report is what a sync did (printed with --json).
type Report struct {
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
	plan    *storesync.Plan
	prefix  string
}

// Sync fetches, merges and pushes, under the store's lock.
func Sync(opts *Options) error {
	tx, place, err := open(opts.Env)
	if err != nil {
		return err
	}
	defer tx.Close()
	root, prefix, repo := place.root, place.prefix, place.repo
	rm, err := remoteOf(repo, opts.Remote, opts.Branch)
	if err != nil {
		return err
	}
	rep := &Report{Remote: rm.Name, URL: rm.URL(), Branch: rm.Branch, Both: []string{}, Renumbered: []merge.Renumber{}, Conflicts: []merge.Conflict{}, Kept: []merge.Conflict{}, prefix: prefix}
	wait := opts.Backoff
	for {
		rep.Attempts++
		if rep.Attempts > 1 {
			// A retry reads the repository afresh: the commit and the
			// fetch before it may have added packs.
			if repo, err = storesync.OpenRepository(tx.Store.Dir); err != nil {
				return err
			}
			rm.Repo = repo
		}
		err := syncOnce(opts, tx, repo, rm, storesync.Repo{Objects: repo.Storer, Prefix: prefix}, root, rep)
		if !errors.Is(err, storesync.ErrRejected) || rep.Attempts > opts.Retries {
			if err != nil && rep.Result == "blocked" {
				if opts.Globals.JSON {
					opts.PrintJSON(rep)
				}
				return cmdutil.Blocked(err)
			}
			if err != nil {
				return err
			}
			return report(opts, rep)
		}
		opts.Warn("curator sync: %s moved during the push; fetching again in %s\n", rm.URL(), wait)
		time.Sleep(wait + time.Duration(rand.Int64N(int64(wait)/2+1)))
		wait *= 2
	}
}

// syncOnce is one fetch, merge and push.
func syncOnce(opts *Options, tx *mdstore.Tx, repo *git.Repository, rm storesync.Remote, sr storesync.Repo, root string, rep *Report) error {
	theirs, err := rm.Fetch()
	if err != nil {
		return err
	}
	head, err := repo.Head()
	if err != nil {
		return fmt.Errorf("reading HEAD: %w", err)
	}
	ours := head.Hash()
	rep.Result = string(storesync.UpToDate)
	if !theirs.IsZero() {
		base, err := storesync.MergeBase(repo, ours, theirs)
		if err != nil {
			return err
		}
		if base.IsZero() {
			rep.Result = "blocked"
			return fmt.Errorf("%s/%s shares no history with %s: nothing was changed; join them once with `git pull --allow-unrelated-histories %s %s` (the merge driver merges the store's records), then sync",
				rm.Name, rm.Branch, rm.Branch, rm.Name, rm.Branch)
		}
		plan, err := sr.PlanMerge(base, ours, theirs)
		if err != nil {
			return err
		}
		rep.plan = plan
		rep.Result = string(plan.Kind)
		rep.TheirsRecords, rep.OursRecords, rep.Both = plan.TheirsRecords, plan.OursRecords, nonNil(plan.Both)
		rep.Renumbered, rep.Conflicts, rep.Kept = nonNil(plan.Renumbered), nonNil(plan.Conflicts), nonNil(plan.Kept)
		rep.OutsideFiles = 0
		for _, c := range plan.Changes {
			if c.Outside {
				rep.OutsideFiles++
			}
		}
		if err := refuse(opts, plan, tx.Store.Dir, root, rep); err != nil {
			rep.Result = "blocked"
			return err
		}
		if plan.Kind != storesync.UpToDate {
			run := mergeRun(tx.Store.Now(), rm, plan, rep.prefix)
			hash, err := opts.Save(tx, run)
			if err != nil {
				return err
			}
			rep.Commit = hash
			ours = plumbing.NewHash(hash)
			// The commit may have written a pack this go-git repository
			// has not listed: open it again for the push.
			if rm.Repo, err = storesync.OpenRepository(tx.Store.Dir); err != nil {
				return err
			}
		}
	}
	if ours == theirs {
		return nil
	}
	if err := rm.Push(); err != nil {
		return err
	}
	rep.Pushed = true
	return nil
}

// refuse stops a merge that would lose or overwrite something: files around
// the store that both sides changed, uncommitted edits in a file the merge
// changes, and (unless allowed) keys both sides changed differently.
func refuse(opts *Options, plan *storesync.Plan, storeDir, root string, rep *Report) error {
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
	if len(plan.Conflicts) > 0 && !opts.AllowConflicts {
		var where []string
		for _, c := range plan.Conflicts {
			where = append(where, conflictText(c))
		}
		return fmt.Errorf("both sides changed the same values differently; nothing was changed:\n  %s\n"+
			"merge anyway with --allow-conflicts (ours is kept; theirs is recorded under merge_conflicts, or between conflict\n"+
			"markers in a body, or left in its commit for a file both sides created), or with `git pull` to review them",
			strings.Join(where, "\n  "))
	}
	return nil
}

// mergeRun is the plan as a run: one merge commit (or a fast-forward)
// whose message lists what the merge decided.
func mergeRun(now time.Time, rm storesync.Remote, plan *storesync.Plan, prefix string) *mdstore.Run {
	from := rm.Name + "/" + rm.Branch
	var summary string
	if plan.Kind == storesync.FastForward {
		summary = fmt.Sprintf("sync: fast-forward to %s (%s)", from, cmdutil.Plural(len(plan.Changes), "file", "files"))
	} else {
		summary = fmt.Sprintf("sync: merge %s (%s from theirs, %d merged from both sides, %d renumbered)",
			from, cmdutil.Plural(plan.TheirsRecords, "record", "records"), len(plan.Both), len(plan.Renumbered))
	}
	run := mdstore.NewRun(summary, now)
	run.Commit.MergeParent = plan.Theirs.String()
	run.Commit.Tip = plan.Ours.String()
	run.Commit.FastForward = plan.Kind == storesync.FastForward
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
		run.Decide(fmt.Sprintf("renumbered theirs' new %s as %s (%s): both sides created %s", r.Old, r.New, r.Path, r.Old))
	}
	for _, c := range plan.Kept {
		run.Decide(keptText(c))
	}
	for _, c := range plan.Conflicts {
		run.Decide("conflict " + conflictText(c) + " (" + outcome(c, plan.Theirs.String(), prefix) + ")")
	}
	return run
}

// remoteOf chooses the remote and branch: the ones given, else the current
// branch and its configured remote, else origin.
func remoteOf(repo *git.Repository, name, branch string) (storesync.Remote, error) {
	if branch == "" {
		head, err := repo.Head()
		if err != nil {
			return storesync.Remote{}, fmt.Errorf("reading HEAD: %w", err)
		}
		if !head.Name().IsBranch() {
			return storesync.Remote{}, cmdutil.Usagef("HEAD is detached: check out a branch or give --branch")
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
		return storesync.Remote{}, cmdutil.Usagef("no git remote %q in this repository (add one with `git remote add %s URL`)", name, name)
	}
	return storesync.Remote{Repo: repo, Name: name, Branch: branch}, nil
}

func report(opts *Options, rep *Report) error {
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	switch rep.Result {
	case string(storesync.UpToDate):
		opts.Say("already up to date with %s/%s\n", rep.Remote, rep.Branch)
	case string(storesync.FastForward):
		opts.Say("fast-forwarded to %s/%s (%s)\n", rep.Remote, rep.Branch, cmdutil.Plural(len(rep.plan.Changes), "file", "files"))
	default:
		opts.Say("merged %s/%s: %s from theirs, %d from ours, %d merged from both sides, %d renumbered, %s outside the store\n",
			rep.Remote, rep.Branch, cmdutil.Plural(rep.TheirsRecords, "record", "records"), rep.OursRecords,
			len(rep.Both), len(rep.Renumbered), cmdutil.Plural(rep.OutsideFiles, "file", "files"))
		for _, r := range rep.Renumbered {
			opts.Say("  renumbered theirs' %s as %s\n", r.Old, r.New)
		}
		for _, c := range rep.Kept {
			opts.Say("  %s\n", keptText(c))
		}
		for _, c := range rep.Conflicts {
			opts.Warn("curator sync: conflict %s (%s)\n", conflictText(c), outcome(c, rep.plan.Theirs.String(), rep.prefix))
		}
	}
	if rep.Pushed {
		opts.Say("pushed %s to %s\n", rep.Branch, rep.URL)
	}
	return nil
}

func list(paths []string) string {
	if len(paths) > 10 {
		return strings.Join(paths[:10], ", ") + fmt.Sprintf(" and %d more", len(paths)-10)
	}
	return strings.Join(paths, ", ")
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// place is where a store sits in its git repository.
type place struct {
	root, prefix string
	repo         *git.Repository
}

// open takes the store's lock and opens its git repository.
func open(env cmdutil.Env) (*mdstore.Tx, place, error) {
	tx, err := env.OpenTx()
	if err != nil {
		return nil, place{}, err
	}
	var p place
	if p.root, p.prefix, err = tx.Store.RepoPlace(); err == nil {
		p.repo, err = storesync.OpenRepository(tx.Store.Dir)
	}
	if err != nil {
		tx.Close()
		return nil, place{}, err
	}
	return tx, p, nil
}
