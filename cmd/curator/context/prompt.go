package contextcmd

import (
	"bytes"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
)

// PromptOptions are what `context prompt` was asked to do.
type PromptOptions struct {
	cmdutil.Env
	// ReflectionID is the pending reflection ("" the oldest).
	ReflectionID string
	Settings     playbook.Settings
}

// NewCmdPrompt builds `curator context prompt`; runF replaces the run in tests.
func NewCmdPrompt(f *cmdutil.Factory, runF func(*PromptOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "prompt",
		Usage: "print the curation prompt for a pending reflection and its nearest bullets (for an LLM)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reflection-id", Usage: "the pending reflection (default: the oldest)"},
			&cli.Float64Flag{Name: "similarity-threshold", Value: playbook.DefaultThreshold, Usage: "above it a lesson reinforces a bullet; from 0.6 up to it, it merges"},
			&cli.Float64Flag{Name: "min-confidence", Value: playbook.DefaultMinConf, Usage: "skip lessons under this confidence"},
		},
		Action: func(c *cli.Context) error {
			if err := cmdutil.CheckID("--reflection-id", c.String("reflection-id")); err != nil {
				return err
			}
			opts := &PromptOptions{Env: f.Env(c), ReflectionID: c.String("reflection-id"),
				Settings: playbook.Settings{Threshold: c.Float64("similarity-threshold"), MinConfidence: c.Float64("min-confidence")}}
			if runF != nil {
				return runF(opts)
			}
			return Prompt(opts)
		},
	}
}

// Prompt prints the prompt. An engine that fails while it finds the
// nearest bullets stops the command before anything is printed.
func Prompt(opts *PromptOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	pending, err := s.ListReflections("pending")
	if err != nil {
		return err
	}
	var r *mdstore.Reflection
	for _, x := range pending.Reflections {
		if opts.ReflectionID == "" || x.ID == opts.ReflectionID {
			r = x
			break
		}
	}
	if r == nil {
		if opts.ReflectionID != "" {
			return cmdutil.Usagef("no pending reflection %q", opts.ReflectionID)
		}
		return cmdutil.Usagef("no pending reflection")
	}
	pb, e, _, err := playbook.Read(s, true, s.Now())
	if err != nil {
		return err
	}
	defer s.WriteCaches()
	data := playbook.BuildPrompt(pb, r, opts.Settings)
	if err := playbook.CheckEngine(e); err != nil {
		return err
	}
	if note := playbook.EngineNote(e); note != "" {
		opts.Warn("curator: %s\n", note)
	}
	var buf bytes.Buffer
	if err := playbook.RenderPrompt(&buf, data); err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(PromptReport{ReflectionID: r.ID, Prompt: buf.String()})
	}
	_, err = opts.IO.Out.Write(buf.Bytes())
	return err
}

// PromptReport is `context prompt --json`: the prompt and the reflection
// it is for.
type PromptReport struct {
	ReflectionID string `json:"reflection_id"`
	Prompt       string `json:"prompt"`
}
