package mcpcmd

import (
	"context"
	"fmt"
	"os"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	pipelinecmd "github.com/curator-dev/curator/cmd/curator/pipeline"
	"github.com/curator-dev/curator/pipeline"
)

// PipelineStatusArgs are pipeline_status's parameters.
type PipelineStatusArgs struct {
	Project string `json:"project" jsonschema:"the project name (a plain file name)"`
	Home    string `json:"home,omitempty" jsonschema:"folder of the pipeline files (default: CURATOR_SDD_HOME, else the store's pipelines/ folder)"`
}

// PipelineTransitionArgs are pipeline_transition's parameters.
type PipelineTransitionArgs struct {
	Project     string `json:"project" jsonschema:"the project name (a plain file name)"`
	Pipeline    string `json:"pipeline" jsonschema:"pipeline type: sdd, ui-lifecycle, debug, full-product, or one from pipeline-config.json"`
	From        string `json:"from" jsonschema:"the phase that ends (its artifacts are validated)"`
	To          string `json:"to" jsonschema:"the phase that begins, or done after the last phase"`
	Step        int    `json:"step,omitempty" jsonschema:"the user story of a step-wise phase (default: the first)"`
	ProjectPath string `json:"project_path,omitempty" jsonschema:"the project folder holding the artifacts (default: the recorded one, else the server's working directory)"`
	Home        string `json:"home,omitempty" jsonschema:"folder of the pipeline files (default: CURATOR_SDD_HOME, else the store's pipelines/ folder)"`
	// SkipRemaining is the reason recorded on the ending phase's steps
	// that never ran (else they stay pending).
	SkipRemaining string `json:"skip_remaining,omitempty" jsonschema:"mark the steps of the phase that ends which never ran as skipped, with this reason (default: they stay pending)"`
}

// ValidateArtifactsArgs are validate_artifacts' parameters.
type ValidateArtifactsArgs struct {
	Project     string `json:"project" jsonschema:"the project name (a plain file name)"`
	Phase       string `json:"phase,omitempty" jsonschema:"the phase whose artifacts to check (default: the current one)"`
	Pipeline    string `json:"pipeline,omitempty" jsonschema:"pipeline type (default: the recorded one, else sdd)"`
	ProjectPath string `json:"project_path,omitempty" jsonschema:"the project folder holding the artifacts (default: the recorded one, else the server's working directory)"`
	Home        string `json:"home,omitempty" jsonschema:"folder of the pipeline files (default: CURATOR_SDD_HOME, else the store's pipelines/ folder)"`
}

func (s *Server) addPipelineTools() {
	tool(s, "pipeline_status", "A project's pipeline state (phases, current phase and step, artifacts) with the drift of its "+
		"validated artifacts; changes nothing (as `curator pipeline status --json`).",
		func(_ context.Context, a PipelineStatusArgs) (Result, error) {
			o, err := s.homeOptions(a.Project, a.Home)
			if err != nil {
				return nil, err
			}
			return s.run("pipeline_status", func(env cmdutil.Env) error {
				o.Env = env
				return pipelinecmd.Status(&pipelinecmd.StatusOptions{HomeOptions: o})
			})
		})
	tool(s, "pipeline_transition", "Hand a pipeline over from one phase to the next: validate the artifacts of from, write the "+
		"brief for to, update the state and dashboard (one commit when the files are in the store). When validation fails "+
		"the transition is refused with every problem named, and the blocked state is still recorded (except at a first "+
		"transition that finds none of the phase's files: then nothing is written).", s.pipelineTransition)
	tool(s, "validate_artifacts", "Check the artifacts of a phase (default: the current one) against its rules: files, sizes, "+
		"required sections; changes nothing and records nothing in the state. Failed checks are an error naming every problem.", s.validateArtifacts)
}

func (s *Server) pipelineTransition(_ context.Context, a PipelineTransitionArgs) (Result, error) {
	o, err := s.homeOptions(a.Project, a.Home)
	if err != nil {
		return nil, err
	}
	if a.Step < 0 {
		return nil, fmt.Errorf("invalid arguments: step %d: steps count from 1", a.Step)
	}
	opts := pipelinecmd.TransitionOptions{Pipeline: a.Pipeline, From: a.From, To: a.To, Step: a.Step, SkipRemaining: a.SkipRemaining}
	if opts.ProjectPath, err = pipelinecmd.AbsPath(a.ProjectPath); err != nil {
		return nil, fmt.Errorf("invalid arguments: project_path: %v", err)
	}
	return s.run("pipeline_transition", func(env cmdutil.Env) error {
		o.Env = env
		opts.HomeOptions = o
		return pipelinecmd.Transition(&opts)
	})
}

func (s *Server) validateArtifacts(_ context.Context, a ValidateArtifactsArgs) (Result, error) {
	o, err := s.homeOptions(a.Project, a.Home)
	if err != nil {
		return nil, err
	}
	opts := pipelinecmd.ValidateOptions{Pipeline: a.Pipeline, Phase: a.Phase}
	if opts.ProjectPath, err = pipelinecmd.AbsPath(a.ProjectPath); err != nil {
		return nil, fmt.Errorf("invalid arguments: project_path: %v", err)
	}
	return s.run("validate_artifacts", func(env cmdutil.Env) error {
		o.Env = env
		opts.HomeOptions = o
		return pipelinecmd.Validate(&opts)
	})
}

// homeOptions are a pipeline tool's project and home folder; the home
// defaults as the command's --home does.
func (s *Server) homeOptions(project, home string) (pipelinecmd.HomeOptions, error) {
	if err := pipeline.CheckProject(project); err != nil {
		return pipelinecmd.HomeOptions{}, fmt.Errorf("invalid arguments: %v", err)
	}
	return pipelinecmd.HomeOptions{Project: project, Home: pipelineHome(home)}, nil
}

// pipelineHome is the home folder asked for, else CURATOR_SDD_HOME ("" is
// the store's pipelines/ folder).
func pipelineHome(home string) string {
	if home == "" {
		return os.Getenv("CURATOR_SDD_HOME")
	}
	return home
}
