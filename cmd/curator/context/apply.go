package contextcmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// ApplyOptions are what `context apply` was asked to do.
type ApplyOptions struct {
	cmdutil.Env
	// File is the curation_actions document ("-": stdin).
	File string
	// ReflectionID is the reflection the document answers ("" the
	// document's own reflection_id); it moves to merged/.
	ReflectionID string
	// DryRun prints the actions and changes nothing.
	DryRun bool
}

// NewCmdApply builds `curator context apply`; runF replaces the run in tests.
func NewCmdApply(f *cmdutil.Factory, runF func(*ApplyOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "apply",
		Usage:     "execute a curation_actions JSON document (e.g. an LLM's answer to `context prompt`)",
		ArgsUsage: "FILE | -",
		Description: "The whole document is validated before anything is written: an unknown action, an unknown\n" +
			"or archived bullet, a merge without merged_content, a new bullet_id already in use or a secret\n" +
			"refuses it (exit 3). A new_bullet without category takes its lesson's (or its bullet_id prefix's),\n" +
			"and without content its lesson's text. // and /* */ comments are ignored, as in the\n" +
			"context-curate procedure's example; an action written as its choices (a|b|c) is the first.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reflection-id", Usage: "the pending reflection the document answers (it moves to merged/)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the actions and change nothing"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cmdutil.Usagef("apply needs a file (or - for stdin)")
			}
			file, err := inputArg(c)
			if err != nil {
				return err
			}
			if err := cmdutil.CheckID("--reflection-id", c.String("reflection-id")); err != nil {
				return err
			}
			opts := &ApplyOptions{Env: f.Env(c), File: file, ReflectionID: c.String("reflection-id"), DryRun: c.Bool("dry-run")}
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
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	rep, err := playbook.Apply(context.Background(), s, playbook.ApplyRequest{Name: name, Data: data,
		ReflectionID: opts.ReflectionID, DryRun: opts.DryRun, Saving: opts.Env.Saving()})
	if err != nil {
		return cmdutil.FlagError(err)
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else if !opts.Globals.Quiet {
		rep.WriteText(opts.IO.Out)
		if rep.Commit != "" {
			opts.Say("Committed %s\n", short(rep.Commit))
		} else if len(rep.Actions) == 0 {
			opts.Say("Nothing to change.\n")
		}
	}
	return opts.FinishInvalid(rep.Invalid)
}
