package pipelinecmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// ReconstructOptions are what `pipeline reconstruct` was asked to do.
type ReconstructOptions struct {
	HomeOptions
	// ProjectPath is --project-path, absolute ("" when not given).
	ProjectPath string
	Pipeline    string
}

// NewCmdReconstruct builds `curator pipeline reconstruct`; runF replaces the run in tests.
func NewCmdReconstruct(f *cmdutil.Factory, runF func(*ReconstructOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "reconstruct",
		Usage: "infer the state from the artifacts on disk (completed phases stay completed)",
		Flags: []cli.Flag{projectFlag(), homeFlag(), projectPathFlag(), pipelineFlag(false)},
		Action: func(c *cli.Context) error {
			opts := &ReconstructOptions{HomeOptions: homeOptions(f, c), Pipeline: c.String("pipeline")}
			var err error
			if opts.ProjectPath, err = projectPath(c); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Reconstruct(opts)
		},
	}
}

// Reconstruct infers the state from the artifacts on disk and writes it;
// phases the old state says are completed stay completed.
func Reconstruct(opts *ReconstructOptions) error {
	req := pipeline.ProjectRequest{Project: opts.Project, ProjectPath: opts.ProjectPath, Pipeline: opts.Pipeline}
	return opts.run(true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Reconstruct(context.Background(), h.Env, h.Saver(), req)
	})
}
