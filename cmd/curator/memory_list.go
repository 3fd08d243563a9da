package main

import (
	"fmt"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/mdstore"
)

func memoryListCommand() *cli.Command {
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
			g := globalsOf(c)
			q := mdstore.MemoryQuery{Status: c.String("status"), Type: c.String("type"), Limit: c.Int("limit"), Offset: c.Int("offset")}
			if q.Status != "" {
				if err := cmdutil.CheckOneOf("status", q.Status, mdstore.MemoryStatuses); err != nil {
					return err
				}
			}
			if q.Type != "" {
				if err := cmdutil.CheckOneOf("type", q.Type, mdstore.MemoryTypes); err != nil {
					return err
				}
			}
			if q.Limit < 0 || q.Offset < 0 {
				return cmdutil.Usagef("--limit and --offset must not be negative")
			}
			var err error
			if q.From, q.To, err = windowFlags(c); err != nil {
				return err
			}
			s, err := g.openStore()
			if err != nil {
				return err
			}
			res, err := s.ListMemories(q)
			if err != nil {
				return err
			}
			if g.JSON {
				entries := make([]map[string]any, 0, len(res.Memories))
				for _, m := range res.Memories {
					entries = append(entries, memoryJSON(m))
				}
				if err := g.printJSON(map[string]any{"entries": entries, "total": res.Total, "limit": q.Limit, "offset": q.Offset, "invalid": cmdutil.InvalidList(res.Invalid)}); err != nil {
					return err
				}
			} else {
				for _, m := range res.Memories {
					fmt.Fprintf(g.stdout, "%s\t%s\t%s\t%s\t%s\n", m.ID, m.Type, m.Status, m.IngestionTime.UTC().Format(time.RFC3339), m.Brief)
				}
				reportInvalid(g, res.Invalid)
			}
			if len(res.Invalid) > 0 {
				return cmdutil.Skipped(len(res.Invalid))
			}
			return nil
		},
	}
}

// windowFlags reads --from/--to; either may be empty.
func windowFlags(c *cli.Context) (from, to time.Time, err error) {
	if v := c.String("from"); v != "" {
		if from, err = memory.ParseTime(v); err != nil {
			return from, to, cmdutil.Usagef("--from: %v", err)
		}
	}
	if v := c.String("to"); v != "" {
		if to, err = memory.ParseTime(v); err != nil {
			return from, to, cmdutil.Usagef("--to: %v", err)
		}
	}
	return from, to, nil
}

func memoryJSON(m *mdstore.Memory) map[string]any {
	return map[string]any{
		"id": m.ID, "type": m.Type, "status": m.Status, "maturity": m.Maturity, "brief": m.Brief,
		"author": m.Author, "tags": cmdutil.NonNil(m.Tags), "content_confidence": m.Confidence(),
		"importance_factors": m.ImportanceFactors, "score": memory.Score(m),
		"ingestion_time": m.IngestionTime.UTC().Format(time.RFC3339Nano), "scenario": m.Scenario,
		"source_cases": cmdutil.NonNil(m.SourceCases), "observation": m.Observation, "trashed": m.Trashed,
		"path": m.Path, "body": m.Body(),
	}
}

// finishInvalid ends a command that skipped invalid files: it names them on
// stderr (the JSON output lists them already) and makes the exit status 5.
func finishInvalid(g globals, inv []*mdstore.InvalidFile) error {
	if len(inv) == 0 {
		return nil
	}
	if !g.JSON {
		reportInvalid(g, inv)
	}
	return cmdutil.Skipped(len(inv))
}

// reportInvalid names every file that could not be read, on stderr.
func reportInvalid(g globals, inv []*mdstore.InvalidFile) {
	for _, f := range inv {
		fmt.Fprintf(g.stderr, "curator: skipped %s (left untouched)\n", f.Error())
	}
}
