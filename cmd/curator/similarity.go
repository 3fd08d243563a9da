package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/similar"
)

// similarityCommand is `curator similarity score`: one score per
// `text1<TAB>text2` line of stdin, with the engine that curate uses.
func similarityCommand() *cli.Command {
	return &cli.Command{
		Name:  "similarity",
		Usage: "measure how similar texts are, as curate sees them",
		Subcommands: []*cli.Command{{
			Name:      "score",
			Usage:     "read text1<TAB>text2 lines on stdin, print one similarity in [0,1] per line",
			ArgsUsage: " ",
			Action: func(c *cli.Context) error {
				engine, err := globalsOf(c).similarityEngine()
				if err != nil {
					return err
				}
				return scoreLines(c, engine)
			},
		}},
	}
}

func scoreLines(c *cli.Context, engine similar.Engine) error {
	in := bufio.NewScanner(c.App.Reader)
	in.Buffer(make([]byte, 64*1024), 16<<20)
	out := bufio.NewWriter(c.App.Writer)
	defer out.Flush()
	failing, _ := engine.(interface{ Err() error })
	for n := 1; in.Scan(); n++ {
		line := strings.TrimRight(in.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		a, b, ok := strings.Cut(line, "\t")
		if !ok {
			out.Flush()
			return cli.Exit(fmt.Sprintf("similarity score: line %d has no TAB between the two texts", n), 2)
		}
		s := engine.Score(a, b)
		if failing != nil && failing.Err() != nil {
			out.Flush()
			return cli.Exit(fmt.Sprintf("similarity score: line %d: %v", n, failing.Err()), 1)
		}
		fmt.Fprintf(out, "%.4f\n", s)
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	if saver, ok := engine.(interface{ Save() error }); ok {
		return saver.Save()
	}
	return nil
}
