package initcmd

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/mdstore"
)

// Options are what `curator init` was asked to do.
type Options struct {
	cmdutil.Env
	// Dir is the folder that gets .curator (default: the working directory).
	Dir string
}

// Report is the --json output of init.
type Report struct {
	Store   string   `json:"store"`
	Created []string `json:"created"`
	Commit  string   `json:"commit"`
}

// NewCmd builds `curator init`; runF replaces the run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "create a .curator store (config.yaml, folders, a git repository if there is none)",
		ArgsUsage: "[DIR]",
		Description: "Creates DIR/.curator (DIR defaults to the working directory) with config.yaml and the\n" +
			"folders of the store layout, and a git repository in DIR when DIR is not inside one.\n" +
			"Existing files are kept. The new store is committed as the first curator run.",
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cmdutil.Usagef("init takes at most one folder")
			}
			opts := &Options{Env: f.Env(c), Dir: c.Args().First()}
			if opts.Dir == "" {
				opts.Dir = "."
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
}

// Run creates the store and commits what it created.
func Run(opts *Options) error {
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return err
	}
	s, created, err := mdstore.Init(opts.Dir)
	if err != nil {
		return err
	}
	rep := Report{Store: s.Dir, Created: created}
	if len(created) > 0 && !opts.Globals.NoCommit {
		tx, err := opts.Begin(s)
		if err != nil {
			return err
		}
		defer tx.Close()
		if rep.Commit, err = tx.SaveStore("curator init"); err != nil {
			return err
		}
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	if len(created) == 0 {
		opts.Say("Store %s already exists; nothing changed.\n", s.Dir)
		return nil
	}
	opts.Say("Initialised curator store in %s\n", s.Dir)
	return nil
}
