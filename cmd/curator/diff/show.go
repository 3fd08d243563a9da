package diffcmd

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/history"
)

// Shown is `curator show --json`: the run a commit records, then what it
// changed (the keys of diff --json).
type Shown struct {
	Run history.Run `json:"run"`
	*history.Result
}

// NewCmdShow builds `curator show`; runF replaces the run in tests.
func NewCmdShow(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "what one run did: its commit, summary and record changes",
		ArgsUsage: "[REV]",
		Description: "The commit REV (default HEAD) as a run: its commit, time, run id (or (not curator) for a\n" +
			"commit curator did not make) and summary, then what it changed, as records: the changes of\n" +
			"curator diff REV^! (REV's first parent → REV; a first commit against nothing), with the same\n" +
			"warnings, --format and --check. --json prints {run, changes, warnings, counts}: run as one\n" +
			"entry of curator log --json, the rest as curator diff --json (see curator diff --help).",
		Flags: outputFlags(),
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cmdutil.Usagef("show takes one revision")
			}
			rev := c.Args().First()
			if strings.Contains(rev, "..") {
				return cmdutil.Usagef("show takes one revision, not a range (curator diff %s compares two states)", rev)
			}
			if rev == "" {
				rev = "HEAD"
			}
			opts := &Options{Env: f.Env(c), Spec: rev, Format: c.String("format"), Check: c.Bool("check")}
			if err := cmdutil.CheckOneOf("format", opts.Format, Formats); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Show(opts)
		},
	}
}

// Show prints the run that commit opts.Spec records and what it changed.
func Show(opts *Options) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	run, res, err := history.Show(s.Dir, opts.Spec, history.Options{Secrets: s.Secrets()})
	if err != nil {
		return err
	}
	return report(opts, res, &run)
}

// runName is how a run is named after its commit: "run <id>", or
// "(not curator)" for a commit curator did not make.
func runName(r history.Run) string {
	if r.RunID == "" {
		return "(not curator)"
	}
	return "run " + r.RunID
}
