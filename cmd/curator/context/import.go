package contextcmd

import (
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
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
			if format != "ace" && format != "kayba" {
				return cmdutil.Usagef("--format %q: want ace or kayba", format)
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
	var in []playbook.ImportedBullet
	if opts.Format == "kayba" {
		in, err = playbook.ParseKayba(data)
	} else {
		in, err = playbook.ParseACE(data)
	}
	if err != nil {
		return cmdutil.Blocked(fmt.Errorf("%s: %w", name, err))
	}
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	s := tx.Store
	pb, _, invalid, err := playbook.Open(s, false, s.Now())
	if err != nil {
		return err
	}
	acts, refused, run, err := playbook.Import(s, pb, in, filepath.Base(name))
	if err != nil {
		return err
	}
	commit, err := opts.Save(tx, run)
	if err != nil {
		return err
	}
	rep := playbook.NewImportReport(len(in), acts, refused, commit)
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		opts.Say("Imported %d of %d bullets from %s (%d already present)\n", rep.Imported, rep.Read, name, rep.Skipped)
		if commit != "" {
			opts.Say("Committed %s\n", short(commit))
		}
	}
	// a refused bullet is an invalid input of the imported file
	for _, e := range refused {
		invalid = append(invalid, &mdstore.InvalidFile{Path: name, Msg: e.Error()})
	}
	return opts.FinishInvalid(invalid)
}
