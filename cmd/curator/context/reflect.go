package contextcmd

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/internal/secrets"
)

// ReflectOptions are what `context reflect` was asked to do.
type ReflectOptions struct {
	cmdutil.Env
	// File is the reflection ("" or "-": stdin).
	File string
	// StdinName is what a reflection read from stdin is called in messages
	// ("stdin" when empty); a name ending in .json reads it as JSON.
	StdinName string
}

// NewCmdReflect builds `curator context reflect`; runF replaces the run in tests.
func NewCmdReflect(f *cmdutil.Factory, runF func(*ReflectOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "reflect",
		Usage:     "store a reflection (markdown with frontmatter, or JSON) as pending",
		ArgsUsage: "[FILE | -]",
		Description: "The reflection is checked first (lessons with content, confidence in [0,1], priority 1–10,\n" +
			"no secrets in any field); a bad one is refused with its file and field (exit 3) and nothing is stored.",
		Action: func(c *cli.Context) error {
			file, err := inputArg(c)
			if err != nil {
				return err
			}
			opts := &ReflectOptions{Env: f.Env(c), File: file}
			if runF != nil {
				return runF(opts)
			}
			return Reflect(opts)
		},
	}
}

// Reflect checks the reflection and stores it as pending, one commit.
func Reflect(opts *ReflectOptions) error {
	name, data, err := readInput(opts.Env, opts.File)
	if err != nil {
		return err
	}
	if (opts.File == "" || opts.File == "-") && opts.StdinName != "" {
		name = opts.StdinName
	}
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	r, err := playbook.CheckReflection(s, name, data)
	var se *secrets.Error
	if errors.As(err, &se) {
		return cmdutil.RefuseSecret(name, se)
	}
	if err != nil {
		return cmdutil.Blocked(err)
	}
	tx, err := opts.Begin(s)
	if err != nil {
		return err
	}
	defer tx.Close()
	run, rel, err := playbook.Reflect(s, r, data, s.Now())
	var exists *playbook.ExistsError
	if errors.As(err, &exists) {
		return cmdutil.Blocked(err)
	}
	if err != nil {
		return err
	}
	commit, err := opts.Save(tx, run)
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(playbook.ReflectReport{Commit: commit, ID: r.ID, Lessons: len(r.Lessons), Path: rel})
	}
	opts.Say("Stored reflection %s (%s) as pending: %s\n", r.ID, cmdutil.Plural(len(r.Lessons), "lesson", "lessons"), rel)
	return nil
}
