package contextcmd

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
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
			&cli.Float64Flag{Name: "similarity-threshold", Value: playbook.DefaultThreshold, Usage: fmt.Sprintf("above it a lesson reinforces a bullet; from %g up to it, it merges", playbook.MergeFloor)},
			&cli.Float64Flag{Name: "min-confidence", Value: playbook.DefaultMinConf, Usage: "skip lessons under this confidence"},
		},
		Action: func(c *cli.Context) error {
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
	rep, err := playbook.Prompt(context.Background(), s, playbook.PromptRequest{ReflectionID: opts.ReflectionID, Settings: opts.Settings})
	if err != nil {
		return cmdutil.FlagError(err)
	}
	for _, note := range rep.Notes {
		opts.Warn("curator: %s\n", note)
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	_, err = io.WriteString(opts.IO.Out, rep.Prompt)
	return err
}
