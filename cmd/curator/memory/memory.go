package memorycmd

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/mdstore"
)

// NewCmd builds the `curator memory` group.
func NewCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "memory",
		Usage: "facts, concepts and lessons: inbox → confirmed → trash",
		Description: "Agents drop memories into memory/inbox/. `curator memory curate` dedups them, scores\n" +
			"them (0.4·proximity + 0.3·surprisal + 0.2·entity_priority + 0.1·unambiguity) and promotes\n" +
			"the strong ones to memory/confirmed/<type>/ or moves noise to memory/trash/.",
		Subcommands: []*cli.Command{
			NewCmdAdd(f, nil), NewCmdList(f, nil), NewCmdShow(f, nil), NewCmdUpdate(f, nil),
			NewCmdDelete(f, nil), NewCmdRestore(f, nil), NewCmdCurate(f, nil), NewCmdPromoteRule(f, nil),
			NewCmdTrash(f),
		},
	}
}

// oneID is the one memory ID a command takes.
func oneID(c *cli.Context) (string, error) {
	if c.NArg() != 1 {
		return "", cmdutil.Usagef("%s needs exactly one memory ID", c.Command.Name)
	}
	return c.Args().First(), nil
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

// Moved is the --json output of a command that writes or moves one memory.
type Moved struct {
	Commit string `json:"commit"`
	ID     string `json:"id"`
	Path   string `json:"path"`
}

// Entry is one memory in --json output (fields in the order of their keys).
type Entry struct {
	Author            string             `json:"author"`
	Body              string             `json:"body"`
	Brief             string             `json:"brief"`
	ContentConfidence int                `json:"content_confidence"`
	ID                string             `json:"id"`
	ImportanceFactors map[string]float64 `json:"importance_factors"`
	IngestionTime     string             `json:"ingestion_time"`
	Maturity          string             `json:"maturity"`
	Observation       map[string]any     `json:"observation"`
	Path              string             `json:"path"`
	Scenario          string             `json:"scenario"`
	Score             float64            `json:"score"`
	SourceCases       []string           `json:"source_cases"`
	Status            string             `json:"status"`
	Tags              []string           `json:"tags"`
	Trashed           map[string]any     `json:"trashed"`
	Type              string             `json:"type"`
}

// NewEntry is m as --json shows it.
func NewEntry(m *mdstore.Memory) Entry {
	return Entry{
		Author: m.Author, Body: m.Body(), Brief: m.Brief, ContentConfidence: m.Confidence(), ID: m.ID,
		ImportanceFactors: m.Factors(), IngestionTime: m.IngestionTime.UTC().Format(time.RFC3339Nano),
		Maturity: m.Maturity, Observation: m.Observation, Path: m.Path, Scenario: m.Scenario,
		Score: memory.Score(m), SourceCases: cmdutil.NonNil(m.SourceCases), Status: m.Status,
		Tags: cmdutil.NonNil(m.Tags), Trashed: m.Trashed, Type: m.Type,
	}
}
