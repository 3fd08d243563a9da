package contextcmd

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// CurateOptions are what `context curate` was asked to do: the request
// (settings, which of them were given, --dry-run, --output).
type CurateOptions struct {
	cmdutil.Env
	playbook.CurateRequest
}

// NewCmdCurate builds `curator context curate`; runF replaces the run in tests.
func NewCmdCurate(f *cmdutil.Factory, runF func(*CurateOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "curate",
		Usage: "merge the pending reflections into the playbook (and, with --maintenance, tidy it)",
		Flags: cmdutil.CurateFlags(),
		Action: func(c *cli.Context) error {
			req, err := cmdutil.CurateRequestOf(c)
			if err != nil {
				return err
			}
			opts := &CurateOptions{Env: f.Env(c), CurateRequest: req}
			if runF != nil {
				return runF(opts)
			}
			return Curate(opts)
		},
	}
}

// Curate runs the curation and prints its report.
func Curate(opts *CurateOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	req := opts.CurateRequest
	req.OutputJSON = opts.Globals.JSON
	req.Saving = opts.Env.Saving()
	rep, err := playbook.Curate(context.Background(), s, req)
	if err != nil {
		return cmdutil.FlagError(err)
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else if !opts.Globals.Quiet {
		st := opts.IO.OutStyle()
		rep.WriteStyledSummary(opts.IO.Out, false, playbook.SummaryStyle{Mark: st.Mark, Paint: st.Decision,
			Icon: func(section string) string { return st.Icon(playbook.SectionIcons[section]) }})
		switch {
		case rep.Commit != "":
			fmt.Fprintf(opts.IO.Out, "\nCommitted %s\n", short(rep.Commit))
		case rep.NothingToChange:
			fmt.Fprintln(opts.IO.Out, "\nNothing to change.")
		}
	}
	return opts.FinishInvalid(rep.Skipped)
}
