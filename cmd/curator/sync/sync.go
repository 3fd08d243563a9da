package synccmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
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
	// Timeout bounds each fetch and each push (0: no bound).
	Timeout time.Duration
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
			"increments, lists join, timestamps take the later, a new local record whose id the remote already\n" +
			"published gets a fresh id with its references, a record moved two ways ends in one folder — as one merge commit\n" +
			"(or a fast-forward), and pushes. When the push is refused because the remote moved meanwhile,\n" +
			"it fetches and merges again, up to --retries times with a growing wait; past the last one it\n" +
			"says how many attempts it made and exits 1, your commits kept for the next sync. The store's\n" +
			"lock is held only to plan and commit the merge: other curator runs go on while sync fetches,\n" +
			"pushes or waits. --timeout bounds each fetch and push (exit 1 when the remote does not answer).\n\n" +
			"Files outside the store are taken from the remote when only the remote changed them. Sync\n" +
			"refuses, before changing anything (exit 3), when both sides changed one such file differently,\n" +
			"when a file it would change has uncommitted edits, or when both sides gave one key of a record\n" +
			"different values (it names each file, key and both values in short); --allow-conflicts merges\n" +
			"anyway, keeping ours, and says where theirs went: under merge_conflicts in the record, between\n" +
			"conflict markers in a body, or in theirs' commit for a file that merges only whole. A record\n" +
			"deleted on one side and changed on the other is kept with the change, and listed. `git pull`\n" +
			"with the merge driver `curator init` registers, then `curator resolve`, is the manual way.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "branch", Usage: "the branch to sync (the same name on the remote; default: the current branch)"},
			&cli.IntFlag{Name: "retries", Value: 5, Usage: "how often to fetch and merge again when the remote moved during the push"},
			cmdutil.DurationFlag("timeout", DefaultTimeout, "give up a fetch or a push that has not finished in this time (0: wait as long as it takes)"),
			&cli.BoolFlag{Name: "allow-conflicts", Usage: "merge even when both sides changed one key differently: keep ours, record theirs under merge_conflicts"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cmdutil.Usagef("sync takes at most one remote")
			}
			opts := &Options{Env: f.Env(c), Remote: c.Args().First(), Branch: c.String("branch"),
				Retries: c.Int("retries"), AllowConflicts: c.Bool("allow-conflicts"), Backoff: 200 * time.Millisecond,
				Timeout: cmdutil.Duration(c, "timeout")}
			if opts.Timeout < 0 {
				return cmdutil.Usagef("--timeout cannot be negative")
			}
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

// Sync fetches, merges and pushes. The store's lock is held only while the
// merge is planned and committed: fetches, pushes and the waits between
// attempts leave the store to other curator runs.
func Sync(opts *Options) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	root, prefix, err := s.RepoPlace()
	if err != nil {
		return err
	}
	repo, err := storesync.OpenRepository(s.Dir)
	if err != nil {
		return err
	}
	rm, err := remoteOf(repo, opts.Remote, opts.Branch)
	if err != nil {
		return err
	}
	// Ctrl-C or SIGTERM stops the fetch or the push cleanly (exit 1).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rm.Context = ctx
	rep := &Report{Remote: rm.Name, URL: rm.URL(), Branch: rm.Branch, Both: []string{}, Renumbered: []merge.Renumber{},
		Conflicts: []merge.Conflict{}, Kept: []merge.Conflict{}, prefix: prefix}
	wait := opts.Backoff
	for {
		rep.Attempts++
		if rep.Attempts > 1 {
			// A retry reads the repository afresh: the commit and the
			// fetch before it may have added packs.
			if rm.Repo, err = storesync.OpenRepository(s.Dir); err != nil {
				return err
			}
		}
		err := syncOnce(opts, s, rm, prefix, root, rep)
		if errors.Is(err, storesync.ErrRejected) && rep.Attempts > opts.Retries {
			return fmt.Errorf("%s/%s kept moving: the push was refused at each of %d attempts (--retries %d), someone pushed between each fetch and push; "+
				"your commits are kept here and nothing is lost: run `curator sync` again (or with a higher --retries) to merge the new commits and push",
				rm.Name, rm.Branch, rep.Attempts, opts.Retries)
		}
		if !errors.Is(err, storesync.ErrRejected) {
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

// syncOnce is one fetch, merge and push; only the merge holds the lock.
func syncOnce(opts *Options, s *mdstore.Store, rm storesync.Remote, prefix, root string, rep *Report) error {
	var theirs plumbing.Hash
	err := bounded(opts.Timeout, &rm, func() (err error) {
		theirs, err = rm.Fetch()
		return err
	})
	if err != nil {
		return timedOut(err, opts.Timeout, fmt.Sprintf("fetching %s from %s", rm.Branch, rm.URL()), "nothing was changed")
	}
	ours, err := mergeLocked(opts, s, rm, theirs, prefix, root, rep)
	if err != nil || ours == theirs {
		return err
	}
	// The fetch and the commit may have written packs this go-git
	// repository has not listed: open it again for the push.
	if rm.Repo, err = storesync.OpenRepository(s.Dir); err != nil {
		return err
	}
	if err := bounded(opts.Timeout, &rm, func() error { return rm.Push() }); err != nil {
		return timedOut(err, opts.Timeout, fmt.Sprintf("pushing %s to %s", rm.Branch, rm.URL()),
			"your commits are kept here: the next `curator sync` pushes them")
	}
	rep.Pushed = true
	return nil
}

// mergeLocked plans the merge of theirs into the branch's tip as it is
// under the store's lock (another run may have committed since the fetch)
// and commits it; it returns the branch's new tip.
func mergeLocked(opts *Options, s *mdstore.Store, rm storesync.Remote, theirs plumbing.Hash, prefix, root string, rep *Report) (plumbing.Hash, error) {
	tx, err := opts.Begin(s)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer tx.Close()
	repo, err := storesync.OpenRepository(s.Dir)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	head, err := repo.Head()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("reading HEAD: %w", err)
	}
	ours := head.Hash()
	rep.Result = string(storesync.UpToDate)
	if theirs.IsZero() {
		return ours, nil
	}
	base, err := storesync.MergeBase(repo, ours, theirs)
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
	plan, err := storesync.Repo{Objects: repo.Storer, Prefix: prefix, Published: merge.Theirs}.PlanMerge(base, ours, theirs)
	if errors.As(err, new(*merge.SideError)) {
		// A version that does not parse or is not a record.
		rep.Result = "blocked"
		return plumbing.ZeroHash, fmt.Errorf("%w; nothing was changed", err)
	}
	if err != nil {
		return plumbing.ZeroHash, err
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
	if err := refuse(opts, plan, s.Dir, root, rep); err != nil {
		rep.Result = "blocked"
		return plumbing.ZeroHash, err
	}
	if plan.Kind == storesync.UpToDate {
		return ours, nil
	}
	hash, err := opts.Save(tx, mergeRun(s.Now(), rm, plan, prefix))
	if err != nil {
		return plumbing.ZeroHash, err
	}
	rep.Commit = hash
	return plumbing.NewHash(hash), nil
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
			"markers in a body, or left in its commit for a file that merges only whole), or with `git pull` to review them",
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
		run.Decide(fmt.Sprintf("%s: both sides created %s, and %s/%s had published it", renumberText(r), r.Old, rm.Name, rm.Branch))
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
			opts.Say("  %s\n", renumberText(r))
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

// renumberText says which side's new record got which id.
func renumberText(r merge.Renumber) string {
	whose := "our"
	if r.Side == merge.Theirs {
		whose = "their"
	}
	return fmt.Sprintf("renumbered %s unpublished %s as %s (%s)", whose, r.Old, r.New, r.Path)
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
