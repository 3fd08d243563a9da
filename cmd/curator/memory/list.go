package memorycmd

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/mdstore"
)

// ListOptions are what `memory list` was asked to do.
type ListOptions struct {
	cmdutil.Env
	Query mdstore.MemoryQuery
}

// NewCmdList builds `curator memory list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list memories ordered by (ingestion_time, id)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "status", Usage: "inbox, confirmed or trash (default: all)"},
			&cli.StringFlag{Name: "type", Usage: "fact, concept or lesson"},
			&cli.StringFlag{Name: "from", Usage: "window start (RFC 3339, inclusive)"},
			&cli.StringFlag{Name: "to", Usage: "window end (RFC 3339, exclusive)"},
			&cli.IntFlag{Name: "limit", Value: 100, Usage: "page size (0 = all)"},
			&cli.IntFlag{Name: "offset", Usage: "entries to skip"},
		},
		Action: func(c *cli.Context) error {
			opts := &ListOptions{Env: f.Env(c)}
			q := &opts.Query
			q.Status, q.Type, q.Limit, q.Offset = c.String("status"), c.String("type"), c.Int("limit"), c.Int("offset")
			var err error
			if q.From, q.To, err = windowFlags(c); err != nil {
				return err
			}
			if err := (memory.ListRequest{Query: *q}).Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return List(opts)
		},
	}
}

// List prints the memories the query selects.
func List(opts *ListOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	rep, err := memory.List(context.Background(), s, memory.ListRequest{Query: opts.Query})
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		for _, m := range rep.Memories {
			fmt.Fprintf(opts.IO.Out, "%s\t%s\t%s\t%s\t%s\n", m.ID, m.Type, m.Status, m.IngestionTime.UTC().Format(time.RFC3339), m.Brief)
		}
	}
	return opts.FinishInvalid(rep.Invalid)
}
