package contextcmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// UsedOptions are what `context used` was asked to do.
type UsedOptions struct {
	cmdutil.Env
	Request playbook.UsageRequest
}

// NewCmdUsed builds `curator context used`; runF replaces the run in tests.
func NewCmdUsed(f *cmdutil.Factory, runF func(*UsedOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "used",
		Usage:     "record that bullets were used in a task (usage_count, last_used_at; helpful or harmful when told), one commit",
		ArgsUsage: "ID…",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "helpful", Usage: "they helped: helpful_count + 1 and confidence + 0.05, as a reflection's helpful_bullets"},
			&cli.BoolFlag{Name: "harmful", Usage: "they harmed: harmful_count + 1, as a reflection's harmful_bullets"},
		},
		Action: func(c *cli.Context) error {
			req := playbook.UsageRequest{IDs: c.Args().Slice(), Helpful: c.Bool("helpful"), Harmful: c.Bool("harmful")}
			if len(req.IDs) == 0 {
				return cmdutil.Usagef("used needs at least one bullet ID")
			}
			if err := req.Check(); err != nil {
				return cmdutil.Usage(err)
			}
			opts := &UsedOptions{Env: f.Env(c), Request: req}
			if runF != nil {
				return runF(opts)
			}
			return Used(opts)
		},
	}
}

// Used records the use of the bullets and prints each bullet's totals.
func Used(opts *UsedOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	req := opts.Request
	req.Saving = opts.Env.Saving()
	rep, err := playbook.Usage(context.Background(), s, req)
	if err != nil {
		return cmdutil.FlagError(err)
	}
	return printActions(opts.Env, *rep)
}
