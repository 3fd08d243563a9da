package main

import (
	"fmt"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
)

func contextQueryCommand() *cli.Command {
	return &cli.Command{
		Name:  "query",
		Usage: "list active bullets by category, tags or similarity to a text",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "category", Usage: "only this category"},
			&cli.StringFlag{Name: "tags", Usage: "only bullets with all these tags (a,b)"},
			&cli.StringFlag{Name: "text", Usage: "rank by similarity to this text"},
			&cli.IntFlag{Name: "limit", Value: 20, Usage: "at most this many"},
		},
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			s, err := g.openStore()
			if err != nil {
				return err
			}
			e, err := playbook.Engine(s)
			if err != nil {
				return err
			}
			pb, invalid, err := playbook.Load(s, nil, s.Now())
			if err != nil {
				return err
			}
			q := playbook.Query{Tags: cmdutil.SplitList(c.String("tags")), Text: c.String("text"), Limit: c.Int("limit")}
			if c.IsSet("category") {
				q.Category = playbook.NormCategory(c.String("category"))
			}
			res := playbook.Search(pb, e.Score, q)
			if g.JSON {
				if res == nil {
					res = []playbook.QueryResult{}
				}
				return g.printJSON(map[string]any{"bullets": res, "invalid": cmdutil.InvalidList(invalid)})
			}
			for _, r := range res {
				score := ""
				if q.Text != "" {
					score = fmt.Sprintf(" %.3f", r.Score)
				}
				g.say("[%s]%s (%s, p%d, +%d/-%d) %s\n", r.ID, score, r.Category, r.Priority, r.HelpfulCount, r.HarmfulCount, strings.Join(strings.Fields(r.Content), " "))
			}
			if len(res) == 0 {
				g.say("No bullets match.\n")
			}
			reportInvalid(g, invalid)
			return nil
		},
	}
}

func contextStatsCommand() *cli.Command {
	return &cli.Command{
		Name:  "stats",
		Usage: "playbook statistics: bullets by category, counters, pending reflections",
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			s, err := g.openStore()
			if err != nil {
				return err
			}
			pb, invalid, err := playbook.Load(s, nil, s.Now())
			if err != nil {
				return err
			}
			pending, err := s.ListReflections("pending")
			if err != nil {
				return err
			}
			st := playbook.StatsOf(pb)
			if g.JSON {
				return g.printJSON(map[string]any{"stats": st, "pending_reflections": len(pending.Reflections),
					"invalid": cmdutil.InvalidList(append(invalid, pending.Invalid...))})
			}
			g.say("Active bullets:       %d\n", st.Active)
			g.say("Archived bullets:     %d\n", st.Archived)
			for _, cat := range sortedKeys(st.ByCategory) {
				g.say("  %-18s  %d\n", cat, st.ByCategory[cat])
			}
			g.say("Average confidence:   %.3f\n", st.AvgConfidence)
			g.say("Helpful / harmful:    %d / %d\n", st.Helpful, st.Harmful)
			g.say("Awaiting review:      %d\n", st.ValidationRequired)
			g.say("Estimated tokens:     %d\n", st.Tokens)
			g.say("Pending reflections:  %d\n", len(pending.Reflections))
			reportInvalid(g, append(invalid, pending.Invalid...))
			return nil
		},
	}
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func contextPromptCommand() *cli.Command {
	return &cli.Command{
		Name:  "prompt",
		Usage: "print the curation prompt for a pending reflection and its nearest bullets (for an LLM)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reflection-id", Usage: "the pending reflection (default: the oldest)"},
			&cli.Float64Flag{Name: "similarity-threshold", Value: playbook.DefaultThreshold},
			&cli.Float64Flag{Name: "min-confidence", Value: playbook.DefaultMinConf},
		},
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			s, err := g.openStore()
			if err != nil {
				return err
			}
			pending, err := s.ListReflections("pending")
			if err != nil {
				return err
			}
			var r *mdstore.Reflection
			for _, x := range pending.Reflections {
				if c.String("reflection-id") == "" || x.ID == c.String("reflection-id") {
					r = x
					break
				}
			}
			if r == nil {
				if c.String("reflection-id") != "" {
					return cmdutil.Usagef("no pending reflection %q", c.String("reflection-id"))
				}
				return cmdutil.Usagef("no pending reflection")
			}
			pb, _, err := loadPlaybook(s, true, s.Now())
			if err != nil {
				return err
			}
			set := playbook.Settings{Threshold: c.Float64("similarity-threshold"), MinConfidence: c.Float64("min-confidence")}
			return playbook.RenderPrompt(g.stdout, playbook.BuildPrompt(pb, r, set))
		},
	}
}
