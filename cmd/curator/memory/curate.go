package memorycmd

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
)

// CurateOptions are what `memory curate` was asked to do.
type CurateOptions struct {
	cmdutil.Env
	// From and To are --from/--to (zero when not given); Task is --task.
	From, To time.Time
	Task     string
	DryRun   bool
	// DedupPrefix is --dedup-prefix; 0 means config.yaml memory.dedup_prefix.
	DedupPrefix int
	// DedupPrefixSet is whether --dedup-prefix was given.
	DedupPrefixSet bool
	// SkipEmpty saves nothing when the window holds no candidate (watch
	// mode: a pass another run already made is not made again).
	SkipEmpty bool
}

// NewCmdCurate builds `curator memory curate`; runF replaces the run in tests.
func NewCmdCurate(f *cmdutil.Factory, runF func(*CurateOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "curate",
		Usage: "the memory pass: dedup, score, promote or trash the inbox entries of a window",
		Description: "Window: --from/--to; or --task with \"整理范围：<start> 到 <end>\"; or, with neither,\n" +
			"from the watermark to now (the first pass: from the oldest inbox entry). A window ending\n" +
			"after now is cut at now. Every inbox entry in the window is read before acting. A pass from\n" +
			"the watermark also curates the late entries (older than the watermark, not seen by an\n" +
			"earlier pass) with the window's; an explicit window (--from, --task) curates its own entries\n" +
			"only. A pass that changes entries is one git commit; a pass that changes none makes no commit.\n" +
			"Invalid files are reported by path and line, left untouched, and make the exit status 5.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "window start (RFC 3339, inclusive)"},
			&cli.StringFlag{Name: "to", Usage: "window end (RFC 3339, exclusive)"},
			&cli.StringFlag{Name: "task", Usage: "task text holding 整理范围：<start> 到 <end>"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the decisions and change nothing"},
			&cli.IntFlag{Name: "dedup-prefix", Usage: "runes of brief that make the dedup key", DefaultText: "config.yaml memory.dedup_prefix, 40"},
		},
		Action: func(c *cli.Context) error {
			opts := &CurateOptions{Env: f.Env(c), Task: c.String("task"), DryRun: c.Bool("dry-run"), DedupPrefix: c.Int("dedup-prefix"),
				DedupPrefixSet: c.IsSet("dedup-prefix")}
			var err error
			if opts.From, opts.To, err = windowFlags(c); err != nil {
				return err
			}
			if err := opts.request().Check(); err != nil {
				return cmdutil.FlagError(err)
			}
			if runF != nil {
				return runF(opts)
			}
			return Curate(opts)
		},
	}
}

// request is the pass the options ask for.
func (opts *CurateOptions) request() memory.CurateRequest {
	return memory.CurateRequest{Task: opts.Task, From: opts.From, To: opts.To, DryRun: opts.DryRun, DedupPrefix: opts.DedupPrefix,
		DedupPrefixSet: opts.DedupPrefixSet, SkipEmpty: opts.SkipEmpty, Progress: opts.Progress("reading the window"), Save: opts.SaveOptions()}
}

// Curate runs the memory pass over the window and commits it (or, with
// --dry-run, only reports what it would do).
func Curate(opts *CurateOptions) error {
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close() // a dry run saves nothing; the caches are still worth keeping
	rep, err := memory.Curate(context.Background(), tx, opts.request())
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else if !opts.Globals.Quiet {
		printReport(opts.IO.Out, opts.IO.OutStyle(), rep)
	}
	return opts.FinishInvalid(rep.Invalid)
}

// printReport is the human report of a pass, each decision in its colour.
func printReport(w io.Writer, st cmdutil.Style, p *memory.CurateReport) {
	dry, commit := p.DryRun, p.Commit
	title := "Memory curation"
	if dry {
		title += " (dry run: nothing changed)"
	}
	fmt.Fprintf(w, "%s, window %s\n", title, p.Window)
	fmt.Fprintf(w, "  candidates:           %d\n", len(p.Candidates))
	section := func(name string, acts []memory.Action, detail func(memory.Action) string) {
		fmt.Fprintf(w, "  %s %d\n", st.Decision(name, fmt.Sprintf("%-21s", name+":")), len(acts))
		for _, a := range acts {
			fmt.Fprintf(w, "    %s  %s\n", a.ID, detail(a))
		}
	}
	if len(p.Late) > 0 {
		fmt.Fprintf(w, "  late:                 %d (older than the watermark, not seen before)\n", len(p.Late))
		for _, id := range p.Late {
			fmt.Fprintf(w, "    %s\n", id)
		}
	}
	section("duplicates trashed", p.Duplicates, func(a memory.Action) string { return "duplicate of " + a.DuplicateOf })
	section("promoted", p.Promoted, func(a memory.Action) string {
		return fmt.Sprintf("→ confirmed/%s (channel %s, score %.4g)", a.Type, a.Channel, a.Score)
	})
	section("discarded", p.Discarded, func(a memory.Action) string { return fmt.Sprintf("score %.4g", a.Score) })
	section("kept in the inbox", p.Kept, func(a memory.Action) string { return fmt.Sprintf("%s, score %.4g", a.Type, a.Score) })
	section("left for reflection", p.LeftForReflection, func(a memory.Action) string {
		return fmt.Sprintf("%s, same dedup key as %s (other authors)", a.Type, strings.Join(a.SharesKeyWith, ", "))
	})
	if len(p.ObservationsClosed) > 0 {
		fmt.Fprintf(w, "  observations closed:  %d\n", len(p.ObservationsClosed))
		for _, c := range p.ObservationsClosed {
			fmt.Fprintf(w, "    %s  %s\n", c.ID, strings.TrimSpace(c.Outcome+" "+c.SupersededBy))
		}
	}
	if len(p.Invalid) > 0 {
		fmt.Fprintf(w, "  invalid (skipped):    %d\n", len(p.Invalid))
	}
	switch {
	case dry:
	case commit != "":
		fmt.Fprintf(w, "Committed %s\n", commit[:12])
	case p.NothingToChange:
		fmt.Fprintln(w, "Nothing to change.")
	}
}
