package diffcmd

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/history"
)

// Options are what `curator diff` was asked to do.
type Options struct {
	cmdutil.Env
	// Spec is "", REV, REV^!, A..B or A...B (see history.Changed); for
	// show, the revision.
	Spec string
	// Format is text or markdown (--json wins).
	Format string
	// Check makes any warning exit 1.
	Check bool
	// Staged compares git's index (what is staged) with HEAD.
	Staged bool
}

// Formats of the output.
var Formats = []string{"text", "markdown"}

// NewCmd builds `curator diff`; runF replaces the run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "the record changes between two states of the store, for review",
		ArgsUsage: "[REV | REV^! | A..B | A...B]",
		Description: "As git diff: without an argument, the uncommitted changes (work tree against HEAD); --staged:\n" +
			"what is staged (git's index against HEAD). REV: the work tree against REV (what changed since\n" +
			"REV, committed or not). REV^!: what that commit did (its first parent → REV; curator show REV\n" +
			"prints the same with the run first). A..B: A → B. A...B: the merge base of A and B → B (a\n" +
			"branch, a PR).\n" +
			"Changes are records, not lines: memories promoted, trashed (with the reason), restored, added,\n" +
			"removed, edited; bullets added, reinforced, counters changed, merged (parents and added\n" +
			"sentences), archived, edited; reflections curated; pipeline state changes; briefs written; and\n" +
			"files that do not parse (invalid, with path and line).\n\n" +
			"Warnings: a memory or bullet deleted instead of trashed or archived, a counter that went down, a\n" +
			"merge whose body lost a sentence of a parent, a secret-like string in an added record, a file\n" +
			"that no longer parses, an id that now names another record. --check exits 1 when there is any.\n\n" +
			"--json prints one object:\n" +
			"  changes   array, one object per record change, ordered by kind then path:\n" +
			"    kind            invalid promoted trashed restored added merged reinforced counters edited\n" +
			"                    moved archived curated state written removed\n" +
			"    record          memory bullet reflection pipeline brief\n" +
			"    id, path        the record id and its store-relative file (after the change)\n" +
			"    from, to        folders of a moved record (inbox, confirmed/fact, trash, bullets/<cat>, …)\n" +
			"    keys            {key: {old, new}} for each changed key (null: absent)\n" +
			"    body_changed    true when the body changed\n" +
			"    body_diff       for bullets and memories, the body word by word: [-removed-] {+added+}\n" +
			"    reason          trashed.reason of a trashed memory\n" +
			"    parents         merged_from and parent_bullet_id of a merged bullet\n" +
			"    added_sentences sentences of a merged body that no parent had\n" +
			"    line, error, side  where and why an invalid file does not parse (side old or new)\n" +
			"  warnings  array of {kind, record, id, path, message}; kind is removed, counter-down,\n" +
			"            lost-sentence, secret, invalid or id-reused\n" +
			"  counts    {kind: number of changes}",
		Flags: append(outputFlags(),
			&cli.BoolFlag{Name: "staged", Usage: "compare what is staged (git's index) with HEAD"}),
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cmdutil.Usagef("diff takes at most one revision or range")
			}
			opts := &Options{Env: f.Env(c), Spec: c.Args().First(), Format: c.String("format"), Check: c.Bool("check"), Staged: c.Bool("staged")}
			if opts.Staged && opts.Spec != "" {
				return cmdutil.Usagef("give either --staged or a revision, not both")
			}
			if err := cmdutil.CheckOneOf("format", opts.Format, Formats); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Diff(opts)
		},
	}
}

// outputFlags are the flags of diff and show that say how the changes are
// printed.
func outputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: "text", Usage: "text or markdown (a review summary to paste into a pull request)"},
		&cli.BoolFlag{Name: "check", Usage: "exit 1 when there is any warning"},
	}
}

// Diff prints the changes.
func Diff(opts *Options) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	res, err := history.Compare(s.Dir, opts.Spec, opts.Staged, history.Options{Secrets: s.Secrets()})
	if err != nil {
		return err
	}
	return report(opts, res, nil)
}

// report prints the changes as the options ask (--json, --format), after
// the run they belong to when there is one (show), and makes a warning exit
// 1 with --check.
func report(opts *Options, res *history.Result, run *history.Run) error {
	var err error
	switch {
	case opts.Globals.JSON && run != nil:
		err = opts.PrintJSON(Shown{Run: *run, Result: res})
	case opts.Globals.JSON:
		err = opts.PrintJSON(res)
	case opts.Format == "markdown":
		if run != nil {
			fmt.Fprintf(opts.IO.Out, "**%s** (commit `%.12s`, %s)\n\n", esc(run.Summary), run.Commit, esc(runName(*run)))
		}
		err = Markdown(opts.IO.Out, res)
	default:
		if run != nil {
			fmt.Fprintf(opts.IO.Out, "commit %.12s  %s  %s\n%s\n\n", run.Commit, run.Time.Local().Format("2006-01-02 15:04"), runName(*run), run.Summary)
		}
		err = Text(opts.IO.Out, res, opts.IO.OutColor)
	}
	if err != nil {
		return err
	}
	if opts.Check && len(res.Warnings) > 0 {
		return cli.Exit(fmt.Sprintf("%d warning(s)", len(res.Warnings)), cmdutil.ExitFailed)
	}
	return nil
}
