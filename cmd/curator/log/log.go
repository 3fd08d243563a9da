package logcmd

import (
	"bufio"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/history"
)

// Options are what `curator log` was asked to do.
type Options struct {
	cmdutil.Env
	Query history.Query
}

// NewCmd builds `curator log`; runF replaces the run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "curator's runs in the store's git history, newest first",
		ArgsUsage: "[REV | ID]",
		Description: "Each run is one commit with a Curator-Run trailer: its time, run id, commit and summary with\n" +
			"its counts (e.g. `memory curate …: 12 promoted, 30 duplicates, 58 kept`), along first parents\n" +
			"from REV (default HEAD). Commits curator did not make are left out, or shown with --all.\n" +
			"Only commit messages are read. --json prints an array of runs with their counts.\n" +
			"curator show REV prints one run with the record changes it made.\n\n" +
			"With a record id (a memory like f-strong or m-2026…, a bullet like STRAT-001), log prints the\n" +
			"life of that record instead, oldest first: one line per commit that changed its file in any\n" +
			"folder (time, commit, run id or (by hand), id, what happened: created from which reflection,\n" +
			"reinforced, merged into ID-vN, archived, restored, ingested, promoted by which channel, trashed\n" +
			"with its reason, edited with the keys). A bullet's whole version chain is followed, both ways.\n" +
			"The argument is tried as an id first when it is a safe file name without ~ ^ or :, and a record\n" +
			"file named after it exists somewhere in the history; otherwise it is a revision. --json prints\n" +
			"an array of events (commit, time, run_id, by_hand, id, record, what, path, from, summary and\n" +
			"what the kind adds: source_reflections, agent, helpful_delta, merged_into, merged_from, channel,\n" +
			"reason, keys). --since, --until and --limit (the newest events) apply to events too.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "kind", Usage: "only runs of this kind: memory, context, pipeline or init"},
			&cli.StringFlag{Name: "since", Usage: "only runs at or after this time: a duration back from now (7d, 12h) or a date (2026-11-01, RFC 3339)"},
			&cli.StringFlag{Name: "until", Usage: "only runs at or before this time (same forms as --since)"},
			&cli.IntFlag{Name: "limit", Usage: "at most this many runs (0: all)"},
			&cli.BoolFlag{Name: "all", Usage: "also list the commits curator did not make, one line each"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cmdutil.Usagef("log takes at most one revision or record id")
			}
			opts := &Options{Env: f.Env(c), Query: history.Query{Kind: c.String("kind"), Limit: c.Int("limit"), All: c.Bool("all"), Rev: c.Args().First()}}
			if err := opts.Query.Check(); err != nil {
				return cmdutil.FlagError(err)
			}
			now := time.Now()
			var err error
			if opts.Query.Since, err = history.ParseWhen("--since", c.String("since"), now); err != nil {
				return err
			}
			if opts.Query.Until, err = history.ParseWhen("--until", c.String("until"), now); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			if history.MaybeRecordID(opts.Query.Rev) {
				return Record(opts)
			}
			return Log(opts)
		},
	}
}

// Log prints the runs.
func Log(opts *Options) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	runs, err := history.Log(s.Dir, opts.Query)
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(cmdutil.NonNil(runs))
	}
	w := bufio.NewWriter(opts.IO.Out)
	for _, r := range runs {
		id := r.RunID
		if id == "" {
			id = "(not curator)"
		}
		fmt.Fprintf(w, "%s  %.10s  %-24s  %s\n", r.Time.Local().Format("2006-01-02 15:04"), r.Commit, id, r.Summary)
	}
	return w.Flush()
}
