package synccmd

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/internal/refuse"
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
			&cli.IntFlag{Name: "retries", Value: storesync.DefaultRetries, Usage: "how often to fetch and merge again when the remote moved during the push"},
			cmdutil.DurationFlag("timeout", storesync.DefaultTimeout, "give up a fetch or a push that has not finished in this time (0: wait as long as it takes)"),
			&cli.BoolFlag{Name: "allow-conflicts", Usage: "merge even when both sides changed one key differently: keep ours, record theirs under merge_conflicts"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cmdutil.Usagef("sync takes at most one remote")
			}
			opts := &Options{Env: f.Env(c), Remote: c.Args().First(), Branch: c.String("branch"),
				Retries: c.Int("retries"), AllowConflicts: c.Bool("allow-conflicts"), Backoff: storesync.DefaultBackoff,
				Timeout: cmdutil.Duration(c, "timeout")}
			if err := opts.request().Check(); err != nil {
				return cmdutil.FlagError(err)
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

// Sync runs the sync and prints what it did.
func Sync(opts *Options) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	// Ctrl-C or SIGTERM stops the fetch or the push cleanly (exit 1).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := storesync.Sync(ctx, s, opts.request())
	if err != nil {
		return failed(opts.Env, rep, err)
	}
	return report(opts, rep)
}

// request is the sync the options ask for.
func (opts *Options) request() storesync.SyncRequest {
	return storesync.SyncRequest{
		Remote: opts.Remote, Branch: opts.Branch, Retries: opts.Retries, Backoff: opts.Backoff,
		Timeout: opts.Timeout, AllowConflicts: opts.AllowConflicts,
		Tx: opts.TxOptions(), Save: opts.SaveOptions(),
		Retrying: func(url string, wait time.Duration) {
			opts.Warn("curator sync: %s moved during the push; fetching again in %s\n", url, wait)
		},
	}
}

// failed prints the report of a refused sync or resolve with --json; the
// error keeps its kind for the exit status.
func failed(env cmdutil.Env, rep any, err error) error {
	if refuse.IsBlocked(err) && env.Globals.JSON && rep != nil {
		env.PrintJSON(rep)
	}
	return err
}

func report(opts *Options, rep *storesync.SyncReport) error {
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	switch rep.Result {
	case string(storesync.UpToDate):
		opts.Say("already up to date with %s/%s\n", rep.Remote, rep.Branch)
	case string(storesync.FastForward):
		opts.Say("fast-forwarded to %s/%s (%s)\n", rep.Remote, rep.Branch, cmdutil.Plural(rep.Files, "file", "files"))
	default:
		opts.Say("merged %s/%s: %s from theirs, %d from ours, %d merged from both sides, %d renumbered, %s outside the store\n",
			rep.Remote, rep.Branch, cmdutil.Plural(rep.TheirsRecords, "record", "records"), rep.OursRecords,
			len(rep.Both), len(rep.Renumbered), cmdutil.Plural(rep.OutsideFiles, "file", "files"))
		for _, r := range rep.Renumbered {
			opts.Say("  %s\n", storesync.RenumberText(r))
		}
		for _, c := range rep.Kept {
			opts.Say("  %s\n", storesync.KeptText(c))
		}
		for _, c := range rep.Conflicts {
			opts.Warn("curator sync: conflict %s (%s)\n", storesync.ConflictText(c), storesync.Outcome(c, rep.Theirs, rep.Prefix))
		}
	}
	if rep.Pushed {
		opts.Say("pushed %s to %s\n", rep.Branch, rep.URL)
	}
	return nil
}
