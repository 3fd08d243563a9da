package memorycmd

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
)

// ShowOptions are what `memory show` was asked to do.
type ShowOptions struct {
	cmdutil.Env
	ID string
}

// NewCmdShow builds `curator memory show`; runF replaces the run in tests.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print one memory",
		ArgsUsage: "ID",
		Action: func(c *cli.Context) error {
			id, err := oneID(c)
			if err != nil {
				return err
			}
			opts := &ShowOptions{Env: f.Env(c), ID: id}
			if runF != nil {
				return runF(opts)
			}
			return Show(opts)
		},
	}
}

// Show prints the memory: a header line and its file, or its --json entry.
func Show(opts *ShowOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	rep, err := memory.Show(context.Background(), s, memory.ShowRequest{ID: opts.ID})
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	fmt.Fprintf(opts.IO.Out, "# %s (%s)\n", rep.Path, rep.Status)
	_, err = opts.IO.Out.Write(rep.File)
	return err
}
