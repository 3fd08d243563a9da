package memorycmd

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
)

// ObserveOptions are what `memory observe` was asked to do.
type ObserveOptions struct {
	cmdutil.Env
	DryRun bool
}

// NewCmdObserve builds `curator memory observe`; runF replaces the run in tests.
func NewCmdObserve(f *cmdutil.Factory, runF func(*ObserveOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "observe",
		Usage: "close the observation windows of promoted memories that are due (held, superseded or trashed)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "list the windows that are due and their outcomes; change nothing"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cmdutil.Usagef("observe takes no arguments (got %q)", c.Args().First())
			}
			opts := &ObserveOptions{Env: f.Env(c), DryRun: c.Bool("dry-run")}
			if runF != nil {
				return runF(opts)
			}
			return Observe(opts)
		},
	}
}

// Observe closes the due windows (one commit) and prints each with its
// outcome.
func Observe(opts *ObserveOptions) error {
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	rep, err := memory.Observe(context.Background(), tx, memory.ObserveRequest{DryRun: opts.DryRun, Save: opts.SaveOptions()})
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
		return opts.FinishInvalid(rep.Invalid)
	}
	verb := "closed"
	if rep.DryRun {
		verb = "due (dry run: nothing changed)"
	}
	for _, c := range rep.Closed {
		by := ""
		if c.SupersededBy != "" {
			by = " by " + c.SupersededBy
		}
		opts.Say("%s\t%s%s\t(window %s → %s)\n", c.ID, c.Outcome, by, c.StartedAt, c.DueAt)
	}
	switch {
	case len(rep.Closed) == 0:
		opts.Say("No observation window is due.\n")
	case rep.Commit != "":
		opts.Say("%s. Committed %s\n", closedCount(len(rep.Closed), verb), rep.Commit[:12])
	default:
		opts.Say("%s.\n", closedCount(len(rep.Closed), verb))
	}
	return opts.FinishInvalid(rep.Invalid)
}

// closedCount is "1 observation window closed" or "n observation windows closed".
func closedCount(n int, verb string) string {
	if n == 1 {
		return "1 observation window " + verb
	}
	return fmt.Sprintf("%d observation windows %s", n, verb)
}
