package contextcmd

import (
	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// ExportOptions are what `context export` was asked to do.
type ExportOptions struct {
	cmdutil.Env
	// Format is ace (the one format).
	Format string
}

// NewCmdExport builds `curator context export`; runF replaces the run in tests.
func NewCmdExport(f *cmdutil.Factory, runF func(*ExportOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "print the active bullets as an ACE text playbook",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "ace", Usage: "ace"},
		},
		Action: func(c *cli.Context) error {
			if c.String("format") != "ace" {
				return cmdutil.Usagef("--format %q: want ace", c.String("format"))
			}
			opts := &ExportOptions{Env: f.Env(c), Format: c.String("format")}
			if runF != nil {
				return runF(opts)
			}
			return Export(opts)
		},
	}
}

// Export prints the playbook.
func Export(opts *ExportOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	list, err := s.ListBullets(false)
	if err != nil {
		return err
	}
	out := playbook.ExportACE(list.Active)
	if opts.Globals.JSON {
		if err := opts.PrintJSON(playbook.ExportReport{Bullets: len(list.Active), Format: opts.Format, Text: string(out)}); err != nil {
			return err
		}
		return opts.FinishInvalid(list.Invalid)
	}
	if _, err := opts.IO.Out.Write(out); err != nil {
		return err
	}
	return opts.FinishInvalid(list.Invalid)
}
