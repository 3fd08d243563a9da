package contextcmd

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// ApplyOptions are what `context apply` was asked to do.
type ApplyOptions struct {
	cmdutil.Env
	// File is the curation_actions document ("-": stdin).
	File string
}

// NewCmdApply builds `curator context apply`; runF replaces the run in tests.
func NewCmdApply(f *cmdutil.Factory, runF func(*ApplyOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "apply",
		Usage:     "execute a curation_actions JSON document (e.g. an LLM's answer to `context prompt`)",
		ArgsUsage: "FILE | -",
		Description: "The whole document is validated before anything is written: an unknown action, an unknown\n" +
			"or archived bullet, a merge without merged_content or a secret refuses it (exit 3).",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cmdutil.Usagef("apply needs a file (or - for stdin)")
			}
			file, err := inputArg(c)
			if err != nil {
				return err
			}
			opts := &ApplyOptions{Env: f.Env(c), File: file}
			if runF != nil {
				return runF(opts)
			}
			return Apply(opts)
		},
	}
}

// Apply carries out the document and the reflections it answers, one commit.
func Apply(opts *ApplyOptions) error {
	name, data, err := readInput(opts.Env, opts.File)
	if err != nil {
		return err
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
	acts, run, err := playbook.Apply(s, pb, data, filepath.Base(name))
	if errors.Is(err, playbook.ErrInvalidDocument) {
		return cmdutil.Blocked(fmt.Errorf("%s: %w", name, err))
	}
	if err != nil {
		return err
	}
	commit, err := opts.Save(tx, run)
	if err != nil {
		return err
	}
	if err := printActions(opts.Env, acts, commit, invalid); err != nil {
		return err
	}
	opts.ReportInvalid(invalid)
	return cmdutil.Skipped(len(invalid))
}
