package dashboardcmd

import (
	"context"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/dashboard"
	"github.com/curator-dev/curator/storehealth"
)

// Options are what `curator dashboard` was asked to do.
type Options struct {
	cmdutil.Env
	// Since limits the runs to this long back from now (0: all).
	Since time.Duration
	// Output is the page's file ("" the store's .cache/dashboard.html).
	Output string
}

// NewCmd builds `curator dashboard`; runF replaces the run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:  "dashboard",
		Usage: "write the store's health page: memory flow, the playbook, the runs, the pipelines",
		Description: "One self-contained HTML page (no script, no network request) computed from the store's git\n" +
			"history (each run's commit, and a playbook run's metrics file) and its files now: memory entries\n" +
			"ingested, promoted by channel, trashed, kept, left for reflection and late, per run (per day or\n" +
			"week for long ranges), the inbox and its oldest entry not yet curated, confirmed memories by\n" +
			"type; active bullets by category and the bullets new, reinforced, merged and archived, the\n" +
			"confidence and helpful/harmful counts, the bullets waiting for validation, the most helpful and\n" +
			"harmful, those unused for 90 days; the runs with their warnings, those that differ sharply from\n" +
			"the recent ones marked; links to the pipeline dashboards. The runs already read are cached in\n" +
			".curator/.cache/store-health.json (git-ignored). --json prints the same series instead of the\n" +
			"page. curator watch --serve ADDR serves the page live at /store.",
		Flags: []cli.Flag{
			cmdutil.DurationFlag("since", 0, "only the runs of the last DURATION, e.g. 30d or 2w (0: the whole history)"),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the page to `FILE`", DefaultText: ".curator/" + dashboard.StorePageFile},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cmdutil.Usagef("dashboard takes no arguments (got %q)", c.Args().First())
			}
			opts := &Options{Env: f.Env(c), Since: cmdutil.Duration(c, "since"), Output: c.String("output")}
			if runF != nil {
				return runF(opts)
			}
			return Dashboard(opts)
		},
	}
}

// Dashboard writes the page, or prints the report with --json.
func Dashboard(opts *Options) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	req := storehealth.Request{Now: time.Now()}
	if opts.Since > 0 {
		req.Since = req.Now.Add(-opts.Since)
	}
	r, err := storehealth.Read(context.Background(), s, req)
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(r)
	}
	out := opts.Output
	if out == "" {
		out = s.Path(dashboard.StorePageFile)
	}
	if out, err = dashboard.WriteStorePage(r, s.Path("pipelines"), out); err != nil {
		return err
	}
	opts.Say("%s\n", out)
	return nil
}
