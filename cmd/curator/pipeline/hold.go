package pipelinecmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// HoldOptions are what `pipeline hold`, `continue` and `skip` were asked to do.
type HoldOptions struct {
	HomeOptions
	// Phase is the phase to skip (skip only).
	Phase string
	// Reason is --reason, recorded in the state.
	Reason string
}

func reasonFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "reason", Usage: usage}
}

// NewCmdHold builds `curator pipeline hold`; runF replaces the run in tests.
func NewCmdHold(f *cmdutil.Factory, runF func(*HoldOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "hold",
		Usage: "put the pipeline on hold (overall status on-hold) until `pipeline continue`; no handoff is made meanwhile",
		Flags: []cli.Flag{projectFlag(), homeFlag(), reasonFlag("why the pipeline is on hold (recorded in the state)")},
		Action: func(c *cli.Context) error {
			opts := &HoldOptions{HomeOptions: homeOptions(f, c), Reason: c.String("reason")}
			if runF != nil {
				return runF(opts)
			}
			return Hold(opts)
		},
	}
}

// NewCmdContinue builds `curator pipeline continue`; runF replaces the run in tests.
func NewCmdContinue(f *cmdutil.Factory, runF func(*HoldOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "continue",
		Usage: "take the pipeline off hold (back to in-progress, or blocked if it was)",
		Flags: []cli.Flag{projectFlag(), homeFlag()},
		Action: func(c *cli.Context) error {
			opts := &HoldOptions{HomeOptions: homeOptions(f, c)}
			if runF != nil {
				return runF(opts)
			}
			return Continue(opts)
		},
	}
}

// NewCmdSkip builds `curator pipeline skip`; runF replaces the run in tests.
func NewCmdSkip(f *cmdutil.Factory, runF func(*HoldOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "skip",
		Usage: "mark a phase skipped; the current phase moves on, and a handoff may pass over it",
		Flags: []cli.Flag{projectFlag(), homeFlag(),
			&cli.StringFlag{Name: "phase", Usage: "the phase to skip", Required: true},
			reasonFlag("why the phase is skipped (its summary in the state)")},
		Action: func(c *cli.Context) error {
			opts := &HoldOptions{HomeOptions: homeOptions(f, c), Phase: c.String("phase"), Reason: c.String("reason")}
			if runF != nil {
				return runF(opts)
			}
			return Skip(opts)
		},
	}
}

// Hold puts the pipeline on hold.
func Hold(opts *HoldOptions) error {
	return opts.run(true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Hold(context.Background(), h.Env, h.Saver(), pipeline.HoldRequest{Project: opts.Project, Reason: opts.Reason})
	})
}

// Continue takes the pipeline off hold.
func Continue(opts *HoldOptions) error {
	return opts.run(true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Continue(context.Background(), h.Env, h.Saver(), pipeline.ProjectRequest{Project: opts.Project})
	})
}

// Skip marks a phase skipped.
func Skip(opts *HoldOptions) error {
	return opts.run(true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Skip(context.Background(), h.Env, h.Saver(), pipeline.PhaseRequest{Project: opts.Project, Phase: opts.Phase, Reason: opts.Reason})
	})
}
