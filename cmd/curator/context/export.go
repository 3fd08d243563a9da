package contextcmd

import (
	"context"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// ExportOptions are what `context export` was asked to do.
type ExportOptions struct {
	cmdutil.Env
	playbook.ExportRequest
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
			opts := &ExportOptions{Env: f.Env(c), ExportRequest: playbook.ExportRequest{Format: c.String("format")}}
			if err := opts.Check(); err != nil {
				return cmdutil.FlagError(err)
			}
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
	rep, err := playbook.Export(context.Background(), s, opts.ExportRequest)
	if err != nil {
		return cmdutil.FlagError(err)
	}
	if opts.Globals.JSON {
		err = opts.PrintJSON(rep)
	} else {
		_, err = io.WriteString(opts.IO.Out, rep.Text)
	}
	if err != nil {
		return err
	}
	return opts.FinishInvalid(rep.Skipped)
}
