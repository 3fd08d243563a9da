package memorycmd

import (
	"context"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/curate/playbook"
)

// SearchOptions are what `memory search` was asked to do.
type SearchOptions struct {
	cmdutil.Env
	Request memory.SearchRequest
}

// NewCmdSearch builds `curator memory search`; runF replaces the run in tests.
func NewCmdSearch(f *cmdutil.Factory, runF func(*SearchOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "find the memories most similar to a query (confirmed ones unless --status says otherwise)",
		ArgsUsage: "QUERY",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "status", Value: "confirmed", Usage: "the folder searched: confirmed, inbox or trash"},
			&cli.StringFlag{Name: "type", Usage: "only fact, concept or lesson"},
			&cli.StringFlag{Name: "tag", Usage: "only memories with all these tags (a,b)"},
			&cli.StringFlag{Name: "author", Usage: "only memories of this author"},
			&cli.StringFlag{Name: "since", Usage: "only memories ingested at or after this time (RFC 3339)"},
			&cli.IntFlag{Name: "limit", Value: memory.DefaultSearchLimit, Usage: "at most this many results"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cmdutil.Usagef("search needs a QUERY")
			}
			req := memory.SearchRequest{Query: strings.Join(c.Args().Slice(), " "), Status: c.String("status"), Type: c.String("type"),
				Tags: cmdutil.SplitList(c.String("tag")), Author: c.String("author"), Limit: c.Int("limit")}
			if c.IsSet("limit") && req.Limit == 0 {
				return cmdutil.Usagef("--limit 0: want at least 1")
			}
			if v := c.String("since"); v != "" {
				t, err := memory.ParseTime(v)
				if err != nil {
					return cmdutil.Usagef("--since: %v", err)
				}
				req.Since = t
			}
			if err := req.Check(); err != nil {
				return err
			}
			opts := &SearchOptions{Env: f.Env(c), Request: req}
			if runF != nil {
				return runF(opts)
			}
			return Search(opts)
		},
	}
}

// Search prints the memories found, best first: id, similarity, type,
// brief.
func Search(opts *SearchOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	e, err := playbook.Engine(s)
	if err != nil {
		return err
	}
	rep, err := memory.Search(context.Background(), s, memory.NewStoredSearchIndex(s, e), opts.Request)
	if err != nil {
		return err
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
	for _, r := range rep.Results {
		how := ""
		if r.Match == memory.MatchWords {
			how = " (words)"
		}
		opts.Say("%s\t%.3f%s\t%s\t%s\n", r.ID, r.Similarity, how, r.Type, r.Brief)
	}
	if len(rep.Results) == 0 {
		opts.Say("No %s memory matches.\n", rep.Status)
	}
	return opts.FinishInvalid(rep.Invalid)
}
