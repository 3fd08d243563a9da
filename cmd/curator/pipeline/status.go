package pipelinecmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// StatusOptions are what `pipeline status` was asked to do.
type StatusOptions struct {
	HomeOptions
}

// NewCmdStatus builds `curator pipeline status`; runF replaces the run in tests.
func NewCmdStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "the pipeline's state, with drift of validated artifacts",
		Flags: []cli.Flag{projectFlag(), homeFlag()},
		Action: func(c *cli.Context) error {
			opts := &StatusOptions{HomeOptions: homeOptions(f, c)}
			if runF != nil {
				return runF(opts)
			}
			return Status(opts)
		},
	}
}

// Status prints the pipeline's state and the drift of its artifacts; it changes nothing.
func Status(opts *StatusOptions) error {
	return opts.run(false, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Status(context.Background(), h.Env, pipeline.ProjectRequest{Project: opts.Project})
	})
}
