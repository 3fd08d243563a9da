package memorycmd

import (
	"context"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/internal/duration"
)

// NewCmdTrash builds the `curator memory trash` group.
func NewCmdTrash(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:        "trash",
		Usage:       "manage the trash",
		Subcommands: []*cli.Command{NewCmdPurge(f, nil)},
	}
}

// PurgeOptions are what `memory trash purge` was asked to do.
type PurgeOptions struct {
	cmdutil.Env
	// OlderThan is the age since trashed.at past which an entry goes.
	OlderThan time.Duration
}

// NewCmdPurge builds `curator memory trash purge`; runF replaces the run in tests.
func NewCmdPurge(f *cmdutil.Factory, runF func(*PurgeOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "purge",
		Usage: "remove trashed memories older than a duration (history keeps them)",
		Flags: []cli.Flag{&cli.StringFlag{Name: "older-than", Value: "30d", Usage: "age since trashed.at: a duration (30d, 1.5d, 2w, 12h)"}},
		Action: func(c *cli.Context) error {
			age, err := duration.Parse(c.String("older-than"))
			if err != nil {
				return cmdutil.Usagef("--older-than: %v", err)
			}
			opts := &PurgeOptions{Env: f.Env(c), OlderThan: age}
			if runF != nil {
				return runF(opts)
			}
			return Purge(opts)
		},
	}
}

// Purge removes the trashed memories older than --older-than and commits it.
func Purge(opts *PurgeOptions) error {
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	rep, err := memory.PurgeTrash(context.Background(), tx, memory.PurgeRequest{OlderThan: opts.OlderThan, Save: opts.SaveOptions()})
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		opts.Say("purged %s\n", cmdutil.Plural(len(rep.Purged), "entry", "entries"))
	}
	return opts.FinishInvalid(rep.Invalid)
}
