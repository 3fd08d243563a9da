package pipelinecmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// RestartOptions are what `pipeline restart` was asked to do.
type RestartOptions struct {
	HomeOptions
	// Phase is the phase to restart at.
	Phase string
}

// NewCmdRestart builds `curator pipeline restart`; runF replaces the run in tests.
func NewCmdRestart(f *cmdutil.Factory, runF func(*RestartOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "restart",
		Usage: "send a phase and every later one back to pending (artifact files are not touched)",
		Flags: []cli.Flag{projectFlag(), homeFlag(), &cli.StringFlag{Name: "phase", Usage: "the phase to restart at", Required: true}},
		Action: func(c *cli.Context) error {
			opts := &RestartOptions{HomeOptions: homeOptions(f, c), Phase: c.String("phase")}
			if runF != nil {
				return runF(opts)
			}
			return Restart(opts)
		},
	}
}

// Restart sends a phase and every later one back to pending.
func Restart(opts *RestartOptions) error {
	return opts.run(true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Restart(context.Background(), h.Env, h.Saver(), pipeline.PhaseRequest{Project: opts.Project, Phase: opts.Phase})
	})
}
