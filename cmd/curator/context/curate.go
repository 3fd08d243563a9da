package contextcmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/internal/memlimit"
	"github.com/curator-dev/curator/mdstore"
)

// maintenanceMemoryLimit is the garbage collector's soft memory limit for
// `curate --maintenance`.
const maintenanceMemoryLimit = 1 << 30

// maintenanceGCPercent is how much the heap may grow between collections
// in `curate --maintenance` (Go's GOGC).
const maintenanceGCPercent = 100

// CurateOptions are what `context curate` was asked to do.
type CurateOptions struct {
	cmdutil.Env
	Settings playbook.Settings
	// ThresholdSet and MinConfidenceSet tell a flag given from its
	// default: config.yaml's context section applies to flags not given.
	ThresholdSet     bool
	MinConfidenceSet bool
	DryRun           bool
	// Output is the file that also gets the report ("" none).
	Output string
}

// NewCmdCurate builds `curator context curate`; runF replaces the run in tests.
func NewCmdCurate(f *cmdutil.Factory, runF func(*CurateOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "curate",
		Usage: "merge the pending reflections into the playbook (and, with --maintenance, tidy it)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reflection-id", Usage: "curate only this pending reflection"},
			&cli.BoolFlag{Name: "auto-merge", Usage: "apply merges with similarity ≥ 0.8 instead of proposing them"},
			&cli.Float64Flag{Name: "similarity-threshold", Value: playbook.DefaultThreshold, Usage: "above it a lesson reinforces a bullet; from 0.6 up to it, it merges"},
			&cli.BoolFlag{Name: "require-validation", Usage: "mark every merged bullet validation: required"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the decisions and change nothing"},
			&cli.StringFlag{Name: "category", Usage: "curate only lessons of this category"},
			&cli.Float64Flag{Name: "min-confidence", Value: playbook.DefaultMinConf, Usage: "skip lessons under this confidence"},
			&cli.StringFlag{Name: "output", Usage: "also save the report to this file (markdown; JSON with --json)"},
			&cli.BoolFlag{Name: "maintenance", Usage: "dedup (> 0.90), archive harmful, prune unused, merge overlapping, rebalance priorities"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cmdutil.Usagef("curate takes no arguments (got %q)", c.Args().First())
			}
			set := playbook.Settings{
				Threshold: c.Float64("similarity-threshold"), MinConfidence: c.Float64("min-confidence"),
				AutoMerge: c.Bool("auto-merge"), RequireValidation: c.Bool("require-validation"),
				ReflectionID: c.String("reflection-id"), Maintenance: c.Bool("maintenance"),
			}
			if c.IsSet("category") {
				set.Category = playbook.NormCategory(c.String("category"))
			}
			if err := cmdutil.CheckID("--reflection-id", set.ReflectionID); err != nil {
				return err
			}
			if err := cmdutil.CheckUnit("similarity-threshold", set.Threshold); err != nil {
				return err
			}
			if set.Threshold < playbook.MergeFloor {
				return cmdutil.Usagef("--similarity-threshold %v: must be at least the merge floor %.1f", set.Threshold, playbook.MergeFloor)
			}
			if err := cmdutil.CheckUnit("min-confidence", set.MinConfidence); err != nil {
				return err
			}
			opts := &CurateOptions{Env: f.Env(c), Settings: set,
				ThresholdSet: c.IsSet("similarity-threshold"), MinConfidenceSet: c.IsSet("min-confidence"),
				DryRun: c.Bool("dry-run"), Output: c.String("output")}
			if runF != nil {
				return runF(opts)
			}
			return Curate(opts)
		},
	}
}

// Curate plans the run, saves it (unless --dry-run) and reports it.
func Curate(opts *CurateOptions) error {
	if opts.Settings.Maintenance {
		// Maintenance holds every bullet's text and every category's
		// candidate index (about 300 MB at 100,000 bullets): with the
		// short runs' soft limit (half again the live heap) the garbage
		// collector would run four times as often. Its limit is at least
		// 1 GiB, and the heap may grow 2×, not the short runs' 5×,
		// between collections. GOMEMLIMIT and GOGC override.
		if os.Getenv("GOMEMLIMIT") == "" {
			memlimit.AtLeast(maintenanceMemoryLimit)
		}
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(maintenanceGCPercent)
		}
	}
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	set := opts.Settings
	var cfg playbook.Config
	if err := s.Config.Section("context", &cfg); err != nil {
		return err
	}
	if cfg.SimilarityThreshold != nil && !opts.ThresholdSet {
		set.Threshold = *cfg.SimilarityThreshold
	}
	if cfg.MinConfidence != nil && !opts.MinConfidenceSet {
		set.MinConfidence = *cfg.MinConfidence
	}
	tx, err := opts.Begin(s)
	if err != nil {
		return err
	}
	defer tx.Close()
	now := s.Now()
	r, err := playbook.PrepareCuration(s, set, mdstore.NewRunID(now), now)
	if errors.Is(err, mdstore.ErrNotFound) {
		return cmdutil.Usage(err)
	}
	if err != nil {
		return err
	}
	commit := ""
	if !opts.DryRun {
		if commit, err = opts.Save(tx, r.Run); err != nil {
			return err
		}
	}
	rep := r.Report(commit, opts.DryRun)
	if opts.Output != "" {
		var buf bytes.Buffer
		if opts.Globals.JSON {
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(rep); err != nil {
				return err
			}
		} else {
			rep.WriteSummary(&buf, true)
		}
		if err := mdstore.WriteFileAtomic(opts.Output, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("--output: %w", err)
		}
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else if !opts.Globals.Quiet {
		st := opts.IO.OutStyle()
		rep.WriteStyledSummary(opts.IO.Out, false, playbook.SummaryStyle{Mark: st.Mark, Paint: st.Decision})
		switch {
		case commit != "":
			fmt.Fprintf(opts.IO.Out, "\nCommitted %s\n", short(commit))
		case !opts.DryRun && r.Changes.Empty():
			fmt.Fprintln(opts.IO.Out, "\nNothing to change.")
		}
	}
	return opts.FinishInvalid(r.Invalid)
}
