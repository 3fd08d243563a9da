package main

import (
	"fmt"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
)

func memoryCurateCommand() *cli.Command {
	return &cli.Command{
		Name:  "curate",
		Usage: "the memory pass: dedup, score, promote or trash the inbox entries of a window",
		Description: "Window: --from/--to; or --task with \"整理范围：<start> 到 <end>\"; or, with neither,\n" +
			"from the watermark in memory/state.json to now. Every inbox entry in the window is read\n" +
			"before acting. The run is one git commit; re-running a window changes nothing.\n" +
			"Invalid files are reported by path and line, left untouched, and make the exit status 5.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "window start (RFC 3339, inclusive)"},
			&cli.StringFlag{Name: "to", Usage: "window end (RFC 3339, exclusive)"},
			&cli.StringFlag{Name: "task", Usage: "task text holding 整理范围：<start> 到 <end>"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the decisions and change nothing"},
			&cli.IntFlag{Name: "dedup-prefix", Value: 40, Usage: "runes of brief that make the dedup key"},
		},
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			s, err := g.openStore()
			if err != nil {
				return err
			}
			if c.Int("dedup-prefix") < 1 {
				return cmdutil.Usagef("--dedup-prefix must be at least 1")
			}
			from, to, err := windowFlags(c)
			if err != nil {
				return err
			}
			if c.IsSet("task") && (c.IsSet("from") || c.IsSet("to")) {
				return cmdutil.Usagef("give either --task or --from/--to, not both")
			}
			l, err := g.lock(s)
			if err != nil {
				return err
			}
			defer l.Unlock()
			now := s.Now()
			w, err := curateWindow(s, c.String("task"), from, to, now)
			if err != nil {
				return err
			}
			run := newRunID(now)
			defer s.WriteCaches() // a dry run saves nothing; the caches are still worth keeping
			r, err := memory.PreparePass(s, w, memory.Options{DedupPrefix: c.Int("dedup-prefix"), Progress: g.progress("reading the window")}, run, now)
			if err != nil {
				return err
			}
			commit := ""
			if !c.Bool("dry-run") {
				if commit, err = g.save(s, r.Changes, r.Commit); err != nil {
					return err
				}
			}
			if g.JSON {
				err = g.printJSON(memoryReport(r, run, commit, c.Bool("dry-run")))
			} else if !g.Quiet {
				printMemoryReport(g.stdout, r, commit, c.Bool("dry-run"))
			}
			if err != nil {
				return err
			}
			if !g.JSON {
				reportInvalid(g, r.Invalid)
			}
			if len(r.Invalid) > 0 {
				return cmdutil.Skipped(len(r.Invalid))
			}
			return nil
		},
	}
}

// curateWindow picks the window: flags, then task text, then watermark → now.
func curateWindow(s *mdstore.Store, task string, from, to, now time.Time) (memory.Window, error) {
	if task != "" {
		w, err := memory.WindowFromTask(task)
		if err != nil {
			return w, cmdutil.Usagef("--task: %v", err)
		}
		return w, nil
	}
	if from.IsZero() || to.IsZero() {
		st, err := s.ReadMemoryState()
		if err != nil {
			return memory.Window{}, err
		}
		if from.IsZero() {
			from = st.Watermark
		}
		if to.IsZero() {
			to = now
		}
	}
	w, err := memory.NewWindow(from, to)
	if err != nil {
		return w, cmdutil.Usagef("%v", err)
	}
	return w, nil
}

func memoryReport(r *memory.Run, run, commit string, dry bool) map[string]any {
	p := r.Plan
	return map[string]any{
		"window": p.Window, "candidates": p.Candidates, "duplicates": p.Duplicates,
		"promoted": p.Promoted, "discarded": p.Discarded, "kept": p.Kept,
		"run_id": run, "commit": commit, "dry_run": dry, "invalid": cmdutil.InvalidList(r.Invalid),
	}
}

func printMemoryReport(w io.Writer, r *memory.Run, commit string, dry bool) {
	p := r.Plan
	title := "Memory curation"
	if dry {
		title += " (dry run: nothing changed)"
	}
	fmt.Fprintf(w, "%s, window %s\n", title, p.Window)
	fmt.Fprintf(w, "  candidates:           %d\n", len(p.Candidates))
	section := func(name string, acts []memory.Action, detail func(memory.Action) string) {
		fmt.Fprintf(w, "  %-21s %d\n", name+":", len(acts))
		for _, a := range acts {
			fmt.Fprintf(w, "    %s  %s\n", a.ID, detail(a))
		}
	}
	section("duplicates trashed", p.Duplicates, func(a memory.Action) string { return "duplicate of " + a.DuplicateOf })
	section("promoted", p.Promoted, func(a memory.Action) string {
		return fmt.Sprintf("→ confirmed/%s (channel %s, score %.4g)", a.Type, a.Channel, a.Score)
	})
	section("discarded", p.Discarded, func(a memory.Action) string { return fmt.Sprintf("score %.4g", a.Score) })
	section("left for reflection", p.Kept, func(a memory.Action) string { return fmt.Sprintf("%s, score %.4g", a.Type, a.Score) })
	if len(r.Invalid) > 0 {
		fmt.Fprintf(w, "  invalid (skipped):    %d\n", len(r.Invalid))
	}
	switch {
	case dry:
	case commit != "":
		fmt.Fprintf(w, "Committed %s\n", commit[:12])
	case r.Changes.Empty():
		fmt.Fprintln(w, "Nothing to change.")
	}
}

func memoryPromoteRuleCommand() *cli.Command {
	return &cli.Command{
		Name:  "promote-rule",
		Usage: "draw a rule from ≥ 3 distinct lesson cases of one scenario into confirmed/lesson/",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scenario", Required: true, Usage: "the scenario whose lessons make the rule"},
			&cli.StringFlag{Name: "author", Value: "curator", Usage: "author of the rule"},
		},
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			scenario := strings.TrimSpace(c.String("scenario"))
			if scenario == "" {
				return cmdutil.Usagef("--scenario must not be empty")
			}
			s, unlock, err := g.openLocked()
			if err != nil {
				return err
			}
			defer unlock()
			if err := cmdutil.RefuseSecret("promote-rule", s.Secrets().Check(secrets.Field{Name: "--scenario", Text: scenario}, secrets.Field{Name: "--author", Text: c.String("author")})); err != nil {
				return err
			}
			list, err := s.ListMemories(mdstore.MemoryQuery{Status: "inbox", Type: "lesson", Secrets: s.Secrets()})
			if err != nil {
				return err
			}
			cases := memory.RuleCases(list.Memories, scenario, 0)
			now := s.Now()
			cs := &mdstore.Changeset{}
			id, err := memory.DrawRule(scenario, cases, c.String("author"), now, cs)
			if err != nil {
				return cmdutil.Blocked(err)
			}
			ids := make([]string, len(cases))
			for i, m := range cases {
				ids[i] = m.ID
			}
			if old, err := s.FindMemory(id); err == nil && strings.Join(old.SourceCases, ",") == strings.Join(ids, ",") {
				cs = &mdstore.Changeset{} // the same rule from the same cases: nothing to do
			}
			commit, err := g.save(s, cs, mdstore.CommitInfo{Summary: "memory promote-rule " + id, Decisions: []string{fmt.Sprintf("rule %s from %s", id, strings.Join(ids, ", "))}, RunID: newRunID(now), At: now})
			if err != nil {
				return err
			}
			if g.JSON {
				if err := g.printJSON(map[string]any{"id": id, "scenario": scenario, "source_cases": ids, "commit": commit, "invalid": cmdutil.InvalidList(list.Invalid)}); err != nil {
					return err
				}
				return finishInvalid(g, list.Invalid)
			}
			g.say("rule %s drawn from %s: %s\n", id, cmdutil.Plural(len(ids), "case", "cases"), strings.Join(ids, ", "))
			return finishInvalid(g, list.Invalid)
		},
	}
}

func memoryTrashCommand() *cli.Command {
	return &cli.Command{
		Name:  "trash",
		Usage: "manage the trash",
		Subcommands: []*cli.Command{{
			Name:  "purge",
			Usage: "remove trashed memories older than a duration (history keeps them)",
			Flags: []cli.Flag{&cli.StringFlag{Name: "older-than", Value: "30d", Usage: "age since trashed.at, e.g. 30d, 12h"}},
			Action: func(c *cli.Context) error {
				g := globalsOf(c)
				age, err := parseAge(c.String("older-than"))
				if err != nil {
					return cmdutil.Usagef("--older-than: %v", err)
				}
				s, unlock, err := g.openLocked()
				if err != nil {
					return err
				}
				defer unlock()
				list, err := s.ListMemories(mdstore.MemoryQuery{Status: "trash"})
				if err != nil {
					return err
				}
				now := s.Now()
				cs := &mdstore.Changeset{}
				var purged []string
				for _, m := range list.Memories {
					at, _ := m.Trashed["at"].(string)
					t, err := memory.ParseTime(at)
					if err != nil || now.Sub(t) <= age {
						continue
					}
					cs.Delete(m.Path)
					purged = append(purged, m.ID)
				}
				commit, err := g.save(s, cs, mdstore.CommitInfo{Summary: fmt.Sprintf("memory trash purge: %s", cmdutil.Plural(len(purged), "entry", "entries")), Decisions: prefixed("purge ", purged), RunID: newRunID(now), At: now})
				if err != nil {
					return err
				}
				if g.JSON {
					if err := g.printJSON(map[string]any{"purged": cmdutil.NonNil(purged), "commit": commit, "invalid": cmdutil.InvalidList(list.Invalid)}); err != nil {
						return err
					}
				} else {
					g.say("purged %s\n", cmdutil.Plural(len(purged), "entry", "entries"))
				}
				return finishInvalid(g, list.Invalid)
			},
		}},
	}
}

func prefixed(p string, xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = p + x
	}
	return out
}

// parseAge reads a Go duration or a number of days ("30d").
func parseAge(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		var n int
		if _, err := fmt.Sscanf(d, "%d", &n); err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a number of days", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}
