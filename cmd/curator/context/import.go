package contextcmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// ImportOptions are what `context import` was asked to do.
type ImportOptions struct {
	cmdutil.Env
	// File is the playbook to import ("-": stdin).
	File string
	// Format is ace or kayba.
	Format string
}

// NewCmdImport builds `curator context import`; runF replaces the run in tests.
func NewCmdImport(f *cmdutil.Factory, runF func(*ImportOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "import a playbook: ACE text (`[id] helpful=N harmful=N :: content` under ## SECTION) or kayba skillbook JSON",
		ArgsUsage: "FILE | -",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "ace", Usage: "ace or kayba"},
		},
		Description: "Each bullet gets a new id of its category (from the section heading); the original id and\n" +
			"section are kept in original_id and section. Bullets already imported (same original_id) are skipped.",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cmdutil.Usagef("import needs a file (or - for stdin)")
			}
			file, err := inputArg(c)
			if err != nil {
				return err
			}
			format := c.String("format")
			if err := (playbook.ImportRequest{Format: format}).Check(); err != nil {
				return cmdutil.FlagError(err)
			}
			opts := &ImportOptions{Env: f.Env(c), File: file, Format: format}
			if runF != nil {
				return runF(opts)
			}
			return Import(opts)
		},
	}
}

// Import adds the playbook's new bullets, one commit.
func Import(opts *ImportOptions) error {
	name, data, err := readInput(opts.Env, opts.File)
	if err != nil {
		return err
	}
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	rep, err := playbook.Import(context.Background(), s, playbook.ImportRequest{Name: name, Data: data, Format: opts.Format, Saving: opts.Env.Saving()})
	if err != nil {
		return cmdutil.FlagError(err)
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		opts.Say("Imported %d of %d bullets from %s (%d already present)\n", rep.Imported, rep.Read, name, rep.Skipped)
		if rep.Commit != "" {
			opts.Say("Committed %s\n", short(rep.Commit))
		}
	}
	return opts.FinishInvalid(rep.Invalid)
}
