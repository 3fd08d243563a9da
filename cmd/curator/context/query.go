package contextcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// QueryOptions are what `context query` was asked to do.
type QueryOptions struct {
	cmdutil.Env
	Query playbook.QueryRequest
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
			&cli.IntFlag{Name: "limit", Value: 20, Usage: "at most this many (0: all)"},
		},
		Action: func(c *cli.Context) error {
			q := playbook.QueryRequest{Tags: cmdutil.SplitList(c.String("tags")), Text: c.String("text"), Limit: c.Int("limit"),
				Category: c.String("category")}
			if err := q.Check(); err != nil {
				return cmdutil.FlagError(err)
			}
			opts := &QueryOptions{Env: f.Env(c), Query: q}
			if runF != nil {
				return runF(opts)
			}
			return Query(opts)
		},
	}
}

// Query prints the bullets that match.
func Query(opts *QueryOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	rep, err := playbook.Query(context.Background(), s, opts.Query)
	if err != nil {
		return cmdutil.FlagError(err)
	}
	for _, note := range rep.Notes {
		opts.Warn("curator: %s\n", note)
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
		return opts.FinishInvalid(rep.Invalid)
	}
	for _, r := range rep.Bullets {
		score := ""
		if opts.Query.Text != "" {
			score = fmt.Sprintf(" %.3f", r.Score)
		}
		opts.Say("[%s]%s (%s, p%d, +%d/-%d) %s\n", r.ID, score, r.Category, r.Priority, r.HelpfulCount, r.HarmfulCount, strings.Join(strings.Fields(r.Content), " "))
	}
	if len(rep.Bullets) == 0 {
		opts.Say("No bullets match.\n")
	}
	return opts.FinishInvalid(rep.Invalid)
}
