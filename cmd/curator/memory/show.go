package memorycmd

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
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
	m, err := s.FindMemory(opts.ID)
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(NewEntry(m))
	}
	fmt.Fprintf(opts.IO.Out, "# %s (%s)\n", m.Path, m.Status)
	_, err = opts.IO.Out.Write(m.Doc.Bytes())
	return err
}
