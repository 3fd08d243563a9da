package similaritycmd

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
)

// NewCmd builds the `curator similarity` group.
func NewCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:        "similarity",
		Usage:       "measure how similar texts are, as curate sees them",
		Subcommands: []*cli.Command{NewCmdScore(f, nil)},
	}
}

// ScoreOptions are what `similarity score` was asked to do.
type ScoreOptions struct {
	cmdutil.Env
}

// NewCmdScore builds `curator similarity score`; runF replaces the run in tests.
func NewCmdScore(f *cmdutil.Factory, runF func(*ScoreOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "score",
		Usage:     "read text1<TAB>text2 lines on stdin, print one similarity in [0,1] per line",
		ArgsUsage: " ",
		Action: func(c *cli.Context) error {
			opts := &ScoreOptions{Env: f.Env(c)}
			if runF != nil {
				return runF(opts)
			}
			return Score(opts)
		},
	}
}

// Score prints one score per `text1<TAB>text2` line of stdin, with the
// engine of the store's config.yaml (the local lexical engine when there is
// no store and none was named).
func Score(opts *ScoreOptions) error {
	var st *mdstore.Store
	s, err := opts.OpenStore()
	switch {
	case errors.Is(err, mdstore.ErrNoStore) && opts.Globals.Store == "":
		// outside every store: the default engine
	case err != nil:
		return err
	default:
		st = s
	}
	scorer, err := playbook.NewScorer(st)
	if err != nil {
		return err
	}
	in := bufio.NewScanner(opts.IO.In)
	in.Buffer(make([]byte, 64*1024), 16<<20)
	out := bufio.NewWriter(opts.IO.Out)
	defer out.Flush()
	// With --json the scores are one document, printed once all are known.
	var scores []LineScore
	emit := func(n int, s float64) { fmt.Fprintf(out, "%.4f\n", s) }
	if opts.Globals.JSON {
		scores = []LineScore{}
		emit = func(n int, s float64) { scores = append(scores, LineScore{Line: n, Score: math.Round(s*1e4) / 1e4}) }
	}
	n := 1
	for ; in.Scan(); n++ {
		line := strings.TrimRight(in.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		a, b, ok := strings.Cut(line, "\t")
		if !ok {
			out.Flush()
			return cmdutil.Usagef("similarity score: line %d has no TAB between the two texts", n)
		}
		s, err := scorer.Score(a, b)
		if err != nil {
			out.Flush()
			return fmt.Errorf("similarity score: line %d: %w", n, err)
		}
		emit(n, s)
	}
	if err := in.Err(); errors.Is(err, bufio.ErrTooLong) {
		out.Flush()
		return cmdutil.Blocked(fmt.Errorf("similarity score: line %d is 16 MiB or longer", n))
	} else if err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	if err := scorer.Close(); err != nil {
		return err
	}
	if scores != nil {
		out.Flush()
		return opts.PrintJSON(ScoreReport{Scores: scores})
	}
	return nil
}

// ScoreReport is `similarity score --json`: one score per input line that
// held a pair (line numbers count every line of stdin).
type ScoreReport struct {
	Scores []LineScore `json:"scores"`
}

// LineScore is the similarity of the pair on one line of stdin.
type LineScore struct {
	Line  int     `json:"line"`
	Score float64 `json:"score"`
}
