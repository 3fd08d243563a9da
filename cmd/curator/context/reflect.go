package contextcmd

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
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
		Name:        "reflect",
		Usage:       "store a reflection (markdown with frontmatter, or JSON) as pending",
		ArgsUsage:   "[FILE | -]",
		Description: fmt.Sprintf(reflectHelp, mdstore.DefaultLessonConfidence),
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

// reflectHelp is reflect's help: what a reflection holds, with a complete
// example in both formats.
const reflectHelp = `A reflection is what an agent learned from one task. Markdown, with the fields in a
frontmatter and free text after it:

  ---
  id: refl-pagination             # optional: the file name's stem, or a fresh refl-<time> on stdin
  agent: implementer
  task: sync the playlists
  created_at: 2026-11-20T10:00:00Z  # optional: now
  lessons:                        # a list; each lesson needs content
    - content: Page through every result page before comparing lists.
      category: strategy          # optional: the bullet category (default: other)
      confidence: 0.9             # optional: a number in [0,1] (default %g)
      tags: [pagination, api]     # optional: a list
      priority: 8                 # optional: 1–10 or high, medium, low (default 5)
  helpful_bullets: [STRAT-001]    # optional: ids of bullets that helped
  harmful_bullets: []             # optional: ids of bullets that misled
  ---
  Only the first page of playlists was read at first.

or the same fields as one JSON object (the free text as "body"):

  {"id": "refl-verify", "agent": "reviewer",
   "lessons": [{"content": "List the folder again after deleting files.", "category": "verification"}]}

It is checked first (lessons with content, confidence in [0,1], priority 1–10 or a tier, no secrets in any
field); a bad one is refused with its file, line and field (exit 3) and nothing is stored. A
reflection whose id is already stored is refused. Read from stdin (- or no FILE) without an id,
each reflection gets a fresh id, refl-<UTC time>, with -2, -3, … when that one is taken.`

// Reflect stores the reflection as pending, one commit.
func Reflect(opts *ReflectOptions) error {
	name, data, err := readInput(opts.Env, opts.File)
	if err != nil {
		return err
	}
	stdin := opts.File == "" || opts.File == "-"
	if stdin && opts.StdinName != "" {
		name = opts.StdinName
	}
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	rep, err := playbook.Reflect(context.Background(), s, playbook.ReflectRequest{Name: name, Data: data, FreshID: stdin, Saving: opts.Env.Saving()})
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	opts.Say("Stored reflection %s (%s) as pending: %s\n", rep.ID, cmdutil.Plural(rep.Lessons, "lesson", "lessons"), rep.Path)
	return nil
}
