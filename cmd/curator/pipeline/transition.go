package pipelinecmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// TransitionOptions are what `pipeline transition` was asked to do.
type TransitionOptions struct {
	HomeOptions
	Pipeline, From, To string
	// Step is the user story of a step-wise phase (0: the first).
	Step int
	// ProjectPath is --project-path, absolute ("" when not given).
	ProjectPath string
	// SkipRemaining is --skip-remaining: the reason recorded on the steps
	// of the phase that ends which never ran.
	SkipRemaining string
}

// NewCmdTransition builds `curator pipeline transition`; runF replaces the run in tests.
func NewCmdTransition(f *cmdutil.Factory, runF func(*TransitionOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "transition",
		Usage: "validate the phase that ends, write the brief for the next one, update the state",
		Flags: []cli.Flag{projectFlag(), homeFlag(), projectPathFlag(), pipelineFlag(true),
			&cli.StringFlag{Name: "from", Usage: "the phase that ends", Required: true},
			&cli.StringFlag{Name: "to", Usage: "the phase that begins (or \"done\" after the last phase)", Required: true},
			&cli.IntFlag{Name: "step", Usage: "the user story of a step-wise phase", DefaultText: "1"},
			&cli.StringFlag{Name: "skip-remaining", Usage: "mark the steps of the phase that ends which never ran as skipped, with this reason (else they stay pending)"},
		},
		Action: func(c *cli.Context) error {
			opts := &TransitionOptions{HomeOptions: homeOptions(f, c), Pipeline: c.String("pipeline"),
				From: c.String("from"), To: c.String("to"), Step: c.Int("step"), SkipRemaining: c.String("skip-remaining")}
			var err error
			if opts.ProjectPath, err = projectPath(c); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Transition(opts)
		},
	}
}

// Transition hands the pipeline over from one phase to the next and
// records the new state, brief and dashboard as one run.
func Transition(opts *TransitionOptions) error {
	req := pipeline.TransitionRequest{Project: opts.Project, Pipeline: opts.Pipeline, From: opts.From, To: opts.To,
		Step: opts.Step, ProjectPath: opts.ProjectPath, SkipRemaining: opts.SkipRemaining}
	return opts.run(true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Transition(context.Background(), h.Env, h.Saver(), req)
	})
}
