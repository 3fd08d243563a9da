package synccmd

import (
	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
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

// Resolve merges the store's files of the merge in progress, stages them
// and prints what it did.
func Resolve(opts *ResolveOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	rep, err := storesync.Resolve(s, storesync.ResolveRequest{Replayed: opts.Replayed, Tx: opts.TxOptions(), Save: opts.SaveOptions()})
	if rep == nil {
		return failed(opts.Env, nil, err)
	}
	if opts.Globals.JSON {
		if perr := opts.PrintJSON(rep); perr != nil {
			return perr
		}
	} else if opts.Replayed != "" {
		if rep.CarriedInto != "" {
			for _, r := range rep.Renumbered {
				opts.Say("  %s\n", storesync.RenumberText(r))
			}
			opts.Say("carried the renumbered ids into %s\n", rep.CarriedInto)
		}
		return nil
	} else {
		opts.Say("resolved the %s: %s of the store written, %d removed, all staged\n", rep.Operation,
			cmdutil.Plural(len(rep.Written), "file", "files"), len(rep.Removed))
		for _, p := range rep.ByHand {
			opts.Say("  kept %s as settled by hand (staged)\n", p)
		}
		for _, r := range rep.Renumbered {
			opts.Say("  %s\n", storesync.RenumberText(r))
		}
		for _, k := range rep.Kept {
			opts.Say("  %s\n", storesync.KeptText(k))
		}
		for _, cf := range rep.Conflicts {
			opts.Warn("curator resolve: review %s (%s)\n", storesync.ConflictText(cf), storesync.Outcome(cf, rep.Theirs, rep.Prefix))
		}
	}
	if program := rep.DriverMissing; program != "" {
		opts.Warn("curator resolve: git could not run the merge driver: merge.curator.driver runs %s, which is not on PATH (or not an executable file), "+
			"so git left each store file both sides changed as ours, whole, marked conflicted; resolve has merged them. "+
			"So that git merges them itself next time, run `curator init --merge-driver` (it registers the path of the curator it runs as), or put curator on PATH\n",
			program)
	}
	if err != nil {
		return err
	}
	if !opts.Globals.JSON {
		opts.Say("next: %s\n", rep.Next())
	}
	return nil
}
