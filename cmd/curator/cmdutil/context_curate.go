package cmdutil

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/internal/refuse"
)

// CurateFlags are the flags of `context curate`; watch's --curate-flags
// takes the same.
func CurateFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "reflection-id", Usage: "curate only this pending reflection"},
		&cli.BoolFlag{Name: "auto-merge", Usage: fmt.Sprintf("apply merges with similarity ≥ %g instead of proposing them", playbook.AutoMergeMin)},
		&cli.Float64Flag{Name: "similarity-threshold", Value: playbook.DefaultThreshold, Usage: fmt.Sprintf("above it a lesson reinforces a bullet; from %g up to it, it merges", playbook.MergeFloor)},
		&cli.BoolFlag{Name: "require-validation", Usage: "mark every merged bullet validation: required"},
		&cli.BoolFlag{Name: "dry-run", Usage: "print the decisions and change nothing"},
		&cli.StringFlag{Name: "category", Usage: "curate only lessons of this category"},
		&cli.Float64Flag{Name: "min-confidence", Value: playbook.DefaultMinConf, Usage: "skip lessons under this confidence"},
		&cli.StringFlag{Name: "output", Usage: "also save the report to this file (markdown; JSON with --json)"},
		&cli.BoolFlag{Name: "maintenance", Usage: fmt.Sprintf("dedup (> %.2f), archive harmful, prune unused, merge overlapping, rebalance priorities", playbook.DedupThreshold)},
	}
}

// CurateRequestOf reads CurateFlags into a checked request (usage errors
// name the flag). The saving options and OutputJSON are the caller's.
func CurateRequestOf(c *cli.Context) (playbook.CurateRequest, error) {
	if c.NArg() > 0 {
		return playbook.CurateRequest{}, Usagef("curate takes no arguments (got %q)", c.Args().First())
	}
	req := playbook.CurateRequest{
		Settings: playbook.Settings{
			Threshold: c.Float64("similarity-threshold"), MinConfidence: c.Float64("min-confidence"),
			AutoMerge: c.Bool("auto-merge"), RequireValidation: c.Bool("require-validation"),
			ReflectionID: c.String("reflection-id"), Maintenance: c.Bool("maintenance"),
		},
		ThresholdSet: c.IsSet("similarity-threshold"), MinConfidenceSet: c.IsSet("min-confidence"),
		DryRun: c.Bool("dry-run"), Output: c.String("output"),
	}
	if c.IsSet("category") {
		req.Settings.Category = playbook.NormCategory(c.String("category"))
	}
	return req, FlagError(req.Check())
}

// FlagError is err with the request parameter it names
// (similarity_threshold) said as its flag (--similarity-threshold), a
// usage error; other errors are returned as they are. renames gives the
// flags whose names are not the parameter's, in pairs: parameter, flag
// ("content_confidence", "confidence").
func FlagError(err error, renames ...string) error {
	var pe *refuse.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	name := strings.ReplaceAll(pe.Param, "_", "-")
	for i := 0; i+1 < len(renames); i += 2 {
		if renames[i] == pe.Param {
			name = renames[i+1]
		}
	}
	flag := "--" + name
	if pe.Phrase {
		return Usage(fmt.Errorf("%s %w", flag, pe.Err))
	}
	return Usage(fmt.Errorf("%s: %w", flag, pe.Err))
}
