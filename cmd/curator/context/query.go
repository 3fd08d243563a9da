package contextcmd

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// QueryOptions are what `context query` was asked to do.
type QueryOptions struct {
	cmdutil.Env
	Query playbook.Query
}

// NewCmdQuery builds `curator context query`; runF replaces the run in tests.
func NewCmdQuery(f *cmdutil.Factory, runF func(*QueryOptions) error) *cli.Command {
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
			q := playbook.Query{Tags: cmdutil.SplitList(c.String("tags")), Text: c.String("text"), Limit: c.Int("limit")}
			if c.IsSet("category") {
				q.Category = playbook.NormCategory(c.String("category"))
			}
			opts := &QueryOptions{Env: f.Env(c), Query: q}
			if runF != nil {
				return runF(opts)
			}
			return Query(opts)
		},
	}
}

// Query prints the bullets that match. An engine that fails while it
// ranks stops the command.
func Query(opts *QueryOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	pb, e, invalid, err := playbook.Read(s, opts.Query.Text != "", s.Now())
	if err != nil {
		return err
	}
	defer s.WriteCaches()
	if e == nil {
		if e, err = playbook.Engine(s); err != nil {
			return err
		}
	}
	q := opts.Query
	res := playbook.Search(pb, e.Score, q)
	if err := pb.Err(); err != nil {
		return err
	}
	if err := playbook.CheckEngine(e); err != nil {
		return err
	}
	if note := playbook.EngineNote(e); note != "" {
		opts.Warn("curator: %s\n", note)
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(playbook.QueryReport{Bullets: cmdutil.NonNil(res), Invalid: cmdutil.InvalidList(invalid)}); err != nil {
			return err
		}
		return opts.FinishInvalid(invalid)
	}
	for _, r := range res {
		score := ""
		if q.Text != "" {
			score = fmt.Sprintf(" %.3f", r.Score)
		}
		opts.Say("[%s]%s (%s, p%d, +%d/-%d) %s\n", r.ID, score, r.Category, r.Priority, r.HelpfulCount, r.HarmfulCount, strings.Join(strings.Fields(r.Content), " "))
	}
	if len(res) == 0 {
		opts.Say("No bullets match.\n")
	}
	return opts.FinishInvalid(invalid)
}
