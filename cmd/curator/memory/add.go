package memorycmd

import (
	"context"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/mdstore"
)

// AddOptions are what `memory add` was asked to do.
type AddOptions struct {
	cmdutil.Env
	// Record is the new memory; a zero IngestionTime means now.
	Record mdstore.NewMemory
	// BodyFromStdin is set by the argument "-".
	BodyFromStdin bool
	// ConfidenceSet is whether --confidence was given.
	ConfidenceSet bool
}

// factorFlags are the importance-factor flags, in formula order.
var factorFlags = []string{"proximity", "surprisal", "entity-priority", "unambiguity"}

// NewCmdAdd builds `curator memory add`; runF replaces the run in tests.
func NewCmdAdd(f *cmdutil.Factory, runF func(*AddOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "add a memory to the inbox and print its id",
		ArgsUsage: "[BODY | -]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "type", Required: true, Usage: "fact, concept or lesson"},
			&cli.StringFlag{Name: "brief", Required: true, Usage: "one-line summary (its first characters, config.yaml memory.dedup_prefix, are the dedup key)"},
			&cli.StringFlag{Name: "author", Usage: "agent or person who wrote it"},
			&cli.StringFlag{Name: "tags", Usage: "comma-separated tags"},
			&cli.IntFlag{Name: "confidence", Value: mdstore.DefaultConfidence, Usage: "content_confidence, 1–5"},
			&cli.Float64Flag{Name: "proximity", Usage: "importance factor in [0,1]"},
			&cli.Float64Flag{Name: "surprisal", Usage: "importance factor in [0,1]"},
			&cli.Float64Flag{Name: "entity-priority", Usage: "importance factor in [0,1]"},
			&cli.Float64Flag{Name: "unambiguity", Usage: "importance factor in [0,1]"},
			&cli.StringFlag{Name: "scenario", Usage: "lessons: the situation it applies to"},
			&cli.StringFlag{Name: "ingestion-time", Usage: "RFC 3339 time it entered the inbox (default: now)"},
			&cli.StringFlag{Name: "id", Usage: "id to use (default: generated from the time)"},
		},
		Action: func(c *cli.Context) error {
			opts := &AddOptions{Env: f.Env(c)}
			r := &opts.Record
			r.Type, r.Brief, r.Author, r.Scenario, r.ID = c.String("type"), c.String("brief"), c.String("author"), c.String("scenario"), c.String("id")
			r.Tags = cmdutil.SplitList(c.String("tags"))
			r.Confidence, opts.ConfidenceSet = c.Int("confidence"), c.IsSet("confidence")
			for _, name := range factorFlags {
				if !c.IsSet(name) {
					continue
				}
				if r.Factors == nil {
					r.Factors = map[string]float64{}
				}
				r.Factors[strings.ReplaceAll(name, "-", "_")] = c.Float64(name)
			}
			var err error
			if r.IngestionTime, err = memory.ParseOptionalTime("--ingestion-time", c.String("ingestion-time")); err != nil {
				return err
			}
			if err := (memory.AddRequest{Record: *r, ConfidenceSet: opts.ConfidenceSet}).Check(); err != nil {
				return cmdutil.FlagError(err, "content_confidence", "confidence")
			}
			r.Body = strings.Join(c.Args().Slice(), " ")
			if r.Body == "-" {
				r.Body, opts.BodyFromStdin = "", true
			}
			if runF != nil {
				return runF(opts)
			}
			return Add(opts)
		},
	}
}

// Add writes the new memory into the inbox and commits it.
func Add(opts *AddOptions) error {
	rec := opts.Record
	if opts.BodyFromStdin {
		b, err := io.ReadAll(opts.IO.In)
		if err != nil {
			return err
		}
		rec.Body = string(b)
	}
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	rep, err := memory.Add(context.Background(), tx, memory.AddRequest{Record: rec, ConfidenceSet: opts.ConfidenceSet, Save: opts.SaveOptions()})
	if err != nil {
		return err
	}
	for _, w := range rep.Warnings { // the factors missing: the flags that give them
		opts.Warn("warning: %s\n  (give --proximity, --surprisal, --entity-priority or --unambiguity, or --quiet to hide this)\n", w)
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	opts.Say("%s\n", rep.ID)
	return nil
}
