package pipelinecmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// ValidateOptions are what `pipeline validate` was asked to do.
type ValidateOptions struct {
	HomeOptions
	// ProjectPath is --project-path, absolute ("" when not given).
	ProjectPath string
	Pipeline    string
	// Phase is the phase to check ("" is the current one).
	Phase string
}

// NewCmdValidate builds `curator pipeline validate`; runF replaces the run in tests.
func NewCmdValidate(f *cmdutil.Factory, runF func(*ValidateOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "validate",
		Usage: "check a phase's artifacts (default: the current phase); exit 3 when they fail; records nothing",
		Flags: []cli.Flag{projectFlag(), homeFlag(), projectPathFlag(), pipelineFlag(false),
			&cli.StringFlag{Name: "phase", Usage: "the phase to check"}},
		Action: func(c *cli.Context) error {
			opts := &ValidateOptions{HomeOptions: homeOptions(f, c), Pipeline: c.String("pipeline"), Phase: c.String("phase")}
			var err error
			if opts.ProjectPath, err = projectPath(c); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Validate(opts)
		},
	}
}

// Validate checks a phase's artifacts and prints each check; it changes
// nothing, and failed checks make the exit status 3.
func Validate(opts *ValidateOptions) error {
	req := pipeline.ProjectRequest{Project: opts.Project, ProjectPath: opts.ProjectPath, Pipeline: opts.Pipeline}
	return opts.run(false, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Validate(context.Background(), h.Env, pipeline.ValidateRequest{ProjectRequest: req, Phase: opts.Phase})
	})
}
