package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/mdstore"
)

func contextCommand() *cli.Command {
	return &cli.Command{
		Name:  "context",
		Usage: "the ACE playbook: reflections curated into bullets",
		Description: "Agents store reflections (lessons learned) with `reflect`; `curate` merges them into the\n" +
			"playbook: similarity > 0.85 reinforces a bullet, 0.6–0.85 merges into a new version <ID>-vN\n" +
			"(a proposal unless --auto-merge), < 0.6 adds a bullet. Every run is one git commit with a\n" +
			"merge log under context/log/. See curate/CONTEXT.md for every rule.",
		Subcommands: []*cli.Command{
			contextReflectCommand(), contextCurateCommand(), contextApplyCommand(), contextPromptCommand(),
			contextQueryCommand(), contextStatsCommand(), contextReviewCommand(), contextInjectCommand(),
			contextImportCommand(), contextExportCommand(),
		},
	}
}

// readInput reads a file argument, or stdin for "-" or none.
func readInput(c *cli.Context, g globals) (string, []byte, error) {
	name := c.Args().First()
	if c.NArg() > 1 {
		return "", nil, cmdutil.Usagef("give one file (or - for stdin)")
	}
	if name == "" || name == "-" {
		data, err := io.ReadAll(io.LimitReader(g.stdin, mdstore.MaxRecordSize+1))
		return "stdin", data, err
	}
	data, err := os.ReadFile(name)
	return name, data, err
}

func contextReflectCommand() *cli.Command {
	return &cli.Command{
		Name:      "reflect",
		Usage:     "store a reflection (markdown with frontmatter, or JSON) as pending",
		ArgsUsage: "[FILE | -]",
		Description: "The reflection is checked first (lessons with content, confidence in [0,1], priority 1–10,\n" +
			"no secrets); a bad one is refused with its file and field (exit 3) and nothing is stored.",
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			name, data, err := readInput(c, g)
			if err != nil {
				return err
			}
			s, err := g.openStore()
			if err != nil {
				return err
			}
			r, err := mdstore.ParseReflection(name, data)
			if err != nil {
				return cmdutil.Blocked(err)
			}
			if err := cmdutil.RefuseSecret(name, s.Secrets().Check(r.TextFields()...)); err != nil {
				return err
			}
			if r.CuratorStatus != "pending" {
				return cmdutil.Blocked(fmt.Errorf("%s: curator_status: %q; a new reflection is pending", name, r.CuratorStatus))
			}
			l, err := g.lock(s)
			if err != nil {
				return err
			}
			defer l.Unlock()
			now := s.Now()
			for _, st := range []string{"pending", "merged"} {
				for _, js := range []bool{false, true} {
					if _, err := os.Lstat(s.Path(mdstore.ReflectionPath(st, r.ID, js))); err == nil {
						return cmdutil.Blocked(fmt.Errorf("reflection %s already exists (%s)", r.ID, mdstore.ReflectionPath(st, r.ID, js)))
					}
				}
			}
			rel := mdstore.ReflectionPath("pending", r.ID, r.JSON)
			if r.CreatedAt.IsZero() && !r.JSON {
				// A reflection without created_at is dated when it is stored
				// (curate takes reflections in created_at order).
				if d, err := frontmatter.Parse(data); err == nil && d.Set("created_at", now) == nil {
					data = d.Bytes()
				}
			}
			cs := &mdstore.Changeset{}
			cs.Write(rel, data)
			commit, err := g.save(s, cs, mdstore.CommitInfo{Summary: "context reflect " + r.ID,
				Decisions: []string{fmt.Sprintf("pending reflection %s: %d lessons", r.ID, len(r.Lessons))}, RunID: newRunID(now), At: now})
			if err != nil {
				return err
			}
			if g.JSON {
				return g.printJSON(map[string]any{"id": r.ID, "path": rel, "lessons": len(r.Lessons), "commit": commit})
			}
			g.say("Stored reflection %s (%s) as pending: %s\n", r.ID, cmdutil.Plural(len(r.Lessons), "lesson", "lessons"), rel)
			return nil
		},
	}
}

func contextCurateCommand() *cli.Command {
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
		Action: contextCurate,
	}
}

func contextCurate(c *cli.Context) error {
	g := globalsOf(c)
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
	if err := cmdutil.CheckUnit("similarity-threshold", set.Threshold); err != nil {
		return err
	}
	if set.Threshold < playbook.MergeFloor {
		return cmdutil.Usagef("--similarity-threshold %v: must be at least the merge floor %.1f", set.Threshold, playbook.MergeFloor)
	}
	if err := cmdutil.CheckUnit("min-confidence", set.MinConfidence); err != nil {
		return err
	}
	s, err := g.openStore()
	if err != nil {
		return err
	}
	var cfg playbook.Config
	if err := s.Config.Section("context", &cfg); err != nil {
		return err
	}
	if cfg.SimilarityThreshold != nil && !c.IsSet("similarity-threshold") {
		set.Threshold = *cfg.SimilarityThreshold
	}
	if cfg.MinConfidence != nil && !c.IsSet("min-confidence") {
		set.MinConfidence = *cfg.MinConfidence
	}
	l, err := g.lock(s)
	if err != nil {
		return err
	}
	defer l.Unlock()
	now := s.Now()
	runID := newRunID(now)
	r, err := playbook.PrepareCuration(s, set, runID, now)
	if errors.Is(err, mdstore.ErrNotFound) {
		return cmdutil.Usagef("%v", err)
	}
	if err != nil {
		return err
	}
	dry := c.Bool("dry-run")
	commit := ""
	if !dry {
		if commit, err = g.save(s, r.Changes, r.Commit); err != nil {
			return err
		}
	}
	rep := r.Report(commit, dry)
	if out := c.String("output"); out != "" {
		var buf bytes.Buffer
		if g.JSON {
			enc := jsonEncoder(&buf)
			if err := enc.Encode(rep); err != nil {
				return err
			}
		} else {
			rep.WriteSummary(&buf, true)
		}
		if err := mdstore.WriteFileAtomic(out, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("--output: %w", err)
		}
	}
	if g.JSON {
		if err := g.printJSON(rep); err != nil {
			return err
		}
	} else if !g.Quiet {
		rep.WriteSummary(g.stdout, false)
		switch {
		case commit != "":
			fmt.Fprintf(g.stdout, "\nCommitted %s\n", commit[:min(12, len(commit))])
		case !dry && r.Changes.Empty():
			fmt.Fprintln(g.stdout, "\nNothing to change.")
		}
	}
	reportInvalid(g, r.Invalid)
	if len(r.Invalid) > 0 {
		return cmdutil.Skipped(len(r.Invalid))
	}
	return nil
}

// loadPlaybook opens the playbook for a command that changes it.
func loadPlaybook(s *mdstore.Store, withMatcher bool, now time.Time) (*playbook.Playbook, []*mdstore.InvalidFile, error) {
	var m func() playbook.Matcher
	if withMatcher {
		e, err := playbook.Engine(s)
		if err != nil {
			return nil, nil, err
		}
		m = func() playbook.Matcher { return newIndex(e) }
	}
	return playbook.Load(s, m, now)
}
