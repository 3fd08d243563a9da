package pipelinecmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// RefreshOptions are what `pipeline refresh` was asked to do.
type RefreshOptions struct {
	HomeOptions
}

// NewCmdRefresh builds `curator pipeline refresh`; runF replaces the run in tests.
func NewCmdRefresh(f *cmdutil.Factory, runF func(*RefreshOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "refresh",
		Usage: "write a new brief for the current phase and step; the state is not changed",
		Flags: []cli.Flag{projectFlag(), homeFlag()},
		Action: func(c *cli.Context) error {
			opts := &RefreshOptions{HomeOptions: homeOptions(f, c)}
			if runF != nil {
				return runF(opts)
			}
			return Refresh(opts)
		},
	}
}

// Refresh writes a new brief for the current phase and step.
func Refresh(opts *RefreshOptions) error {
	return opts.run(true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Refresh(context.Background(), h.Env, h.Saver(), pipeline.ProjectRequest{Project: opts.Project})
	})
}
