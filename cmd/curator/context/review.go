package contextcmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// ReviewOptions are what `context review` was asked to do.
type ReviewOptions struct {
	cmdutil.Env
	Approve bool
	ID      string
}

// NewCmdReview builds `curator context review`; runF replaces the run in tests.
func NewCmdReview(f *cmdutil.Factory, runF func(*ReviewOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "review",
		Usage:     "approve or reject a bullet awaiting validation (approve applies its pending merge proposal)",
		ArgsUsage: "approve|reject ID",
		Action: func(c *cli.Context) error {
			verb, id := c.Args().Get(0), c.Args().Get(1)
			if (verb != "approve" && verb != "reject") || id == "" || c.NArg() != 2 {
				return cmdutil.Usagef("usage: curator context review approve|reject ID")
			}
			if err := cmdutil.CheckID("ID", id); err != nil {
				return err
			}
			opts := &ReviewOptions{Env: f.Env(c), Approve: verb == "approve", ID: id}
			if runF != nil {
				return runF(opts)
			}
			return Review(opts)
		},
	}
}

// Review records the decision on the bullet, one commit.
func Review(opts *ReviewOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	rep, err := playbook.Review(context.Background(), s, playbook.ReviewRequest{ID: opts.ID, Approve: opts.Approve, Saving: saving(opts.Env)})
	if err != nil {
		return err
	}
	return printActions(opts.Env, *rep)
}
