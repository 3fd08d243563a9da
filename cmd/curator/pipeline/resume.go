package pipelinecmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// ResumeOptions are what `pipeline resume` was asked to do.
type ResumeOptions struct {
	HomeOptions
	// ProjectPath is --project-path, absolute ("" when not given).
	ProjectPath string
	Pipeline    string
}

// NewCmdResume builds `curator pipeline resume`; runF replaces the run in tests.
func NewCmdResume(f *cmdutil.Factory, runF func(*ResumeOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "resume",
		Usage: "pick the pipeline up where it stands: validate the current phase, write a fresh brief, save the state (reconstructs a missing state)",
		Flags: []cli.Flag{projectFlag(), homeFlag(), projectPathFlag(), pipelineFlag(false)},
		Action: func(c *cli.Context) error {
			opts := &ResumeOptions{HomeOptions: homeOptions(f, c), Pipeline: c.String("pipeline")}
			var err error
			if opts.ProjectPath, err = projectPath(c); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Resume(opts)
		},
	}
}

// Resume picks the pipeline up where it stands, without advancing it: the
// current phase's artifacts are validated, a fresh brief is written for the
// current phase and step, and the state and dashboard are saved, as one
// run. A missing or corrupt state is reconstructed from the artifacts.
func Resume(opts *ResumeOptions) error {
	req := pipeline.ProjectRequest{Project: opts.Project, ProjectPath: opts.ProjectPath, Pipeline: opts.Pipeline}
	return opts.run(true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Resume(context.Background(), h.Env, h.Saver(), req)
	})
}
