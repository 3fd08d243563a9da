package auditcmd

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/history"
	"github.com/curator-dev/curator/mdstore"
)

// Options are what `curator audit` was asked to do.
type Options struct {
	cmdutil.Env
	// Range is --range, or --since REV as REV..HEAD ("" all of HEAD).
	Range string
}

// NewCmd builds `curator audit`; runF replaces the run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:  "audit",
		Usage: "check the store's git history: bullets changed only by logged curator runs, the merge log only appended to",
		Description: "Reads the commits of the range and reports, per commit: a bullet file (context/bullets/,\n" +
			"context/archive/) that changed without a merge-log line of the same curator run naming it (a\n" +
			"run is a commit with the Curator-Run trailer); a merge-log line (context/log/) rewritten or\n" +
			"deleted, or a merge-log file deleted; and each commit without the trailer that changed files\n" +
			"under context/. Exit 1 when there is any finding, 0 when the history is clean: a CI gate, or a\n" +
			"server's pre-receive hook (`--range OLD..NEW`; run in a bare repository, the store is .curator\n" +
			"at the root of the pushed tree, and the objects of the push are read where git keeps them).\n" +
			"With an access section in config.yaml, the agent needs level 5 (system). --json prints the\n" +
			"report (range, commits, findings with kind, commit, path, line, bullet, message; clean).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "range", Usage: "the commits to audit: REV (every commit of REV) or A..B (the commits of B that A does not have)", DefaultText: "every commit of HEAD"},
			&cli.StringFlag{Name: "since", Usage: "audit only the commits after REV (REV..HEAD)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cmdutil.Usagef("audit takes no arguments (got %q); give the commits with --range", c.Args().First())
			}
			opts := &Options{Env: f.Env(c), Range: c.String("range")}
			if since := c.String("since"); since != "" {
				if opts.Range != "" {
					return cmdutil.Usagef("--since and --range cannot be given together")
				}
				opts.Range = since + "..HEAD"
			}
			if runF != nil {
				return runF(opts)
			}
			return Audit(opts)
		},
	}
}

// Audit runs the audit and prints its findings.
func Audit(opts *Options) error {
	req := history.AuditRequest{Range: opts.Range, Agent: opts.Globals.Agent, ObjectDirs: objectDirs()}
	s, err := opts.OpenStore()
	switch {
	case err == nil:
		req.Store = s
	case errors.Is(err, mdstore.ErrNoStore) && opts.Globals.Store == "" && history.IsBareRepo(gitDir()):
		req.Repo = gitDir()
	default:
		return err
	}
	rep, err := history.Audit(req)
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		for _, f := range rep.Findings {
			fmt.Fprintf(opts.IO.Out, "%.12s  %s  %s\n", f.Commit, f.Kind, f.Message)
		}
		if rep.Clean {
			opts.Say("%s %d %s audited (%s): no finding\n", opts.Mark(cmdutil.StatusOK), rep.Commits, plural(rep.Commits, "commit", "commits"), rep.Range)
		}
	}
	if !rep.Clean {
		return cli.Exit(fmt.Sprintf("audit: %d %s in %d %s (%s)", len(rep.Findings), plural(len(rep.Findings), "finding", "findings"),
			rep.Commits, plural(rep.Commits, "commit", "commits"), rep.Range), cmdutil.ExitFailed)
	}
	return nil
}

// gitDir is the repository a server's hook runs in: GIT_DIR, else the
// working directory.
func gitDir() string {
	if d := os.Getenv("GIT_DIR"); d != "" {
		return d
	}
	return "."
}

// objectDirs are the folders git gives a hook for the objects it has not
// accepted yet (a pre-receive hook's quarantine), beside the repository's.
func objectDirs() []string {
	var out []string
	if d := os.Getenv("GIT_OBJECT_DIRECTORY"); d != "" {
		out = append(out, d)
	}
	for _, d := range strings.Split(os.Getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES"), string(os.PathListSeparator)) {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
