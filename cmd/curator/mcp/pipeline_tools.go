package mcpcmd

import (
	"context"
	"os"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/hooks"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
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
	// NoHooks skips the playbook curations the transition triggers.
	NoHooks bool `json:"no_hooks,omitempty" jsonschema:"do not run the playbook curations this transition triggers (pipelines.hooks in config.yaml)"`
	// NoRelevantContext leaves the relevant bullets and memories out of the brief.
	NoRelevantContext bool `json:"no_relevant_context,omitempty" jsonschema:"leave the relevant playbook bullets and memories out of the brief (pipelines.relevant_context in config.yaml)"`
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
		func(ctx context.Context, a PipelineStatusArgs) (Result, error) {
			return s.pipelineTool("pipeline_status", a.Home, false, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
				return pipeline.Status(ctx, h.Env, pipeline.ProjectRequest{Project: a.Project})
			})
		})
	tool(s, "pipeline_transition", "Hand a pipeline over from one phase to the next: validate the artifacts of from, write the "+
		"brief for to, update the state and dashboard (one commit when the files are in the store). When validation fails "+
		"the transition is refused with every problem named, and the blocked state is still recorded (except at a first "+
		"transition that finds none of the phase's files: then nothing is written). Then, unless no_hooks, the playbook "+
		"curations the transition's events trigger run, each its own commit, listed in the result's hooks (a failed one "+
		"never undoes the transition).", s.pipelineTransition)
	tool(s, "validate_artifacts", "Check the artifacts of a phase (default: the current one) against its rules: files, sizes, "+
		"required sections; changes nothing and records nothing in the state. Failed checks are an error naming every problem.", s.validateArtifacts)
}

func (s *Server) pipelineTransition(ctx context.Context, a PipelineTransitionArgs) (Result, error) {
	req := hooks.TransitionRequest{NoHooks: a.NoHooks, Agent: s.agentEnv(ctx, "pipeline_transition").Globals.Agent, TransitionRequest: pipeline.TransitionRequest{Project: a.Project,
		Pipeline: a.Pipeline, From: a.From, To: a.To, Step: a.Step, ProjectPath: a.ProjectPath, SkipRemaining: a.SkipRemaining}}
	if a.NoRelevantContext {
		off := false
		req.Relevant.Enabled = &off
	}
	r, err := hooks.Transition(ctx, s.homeOptions("pipeline_transition", a.Home, true), req)
	if err != nil {
		return nil, toolError(err)
	}
	return asResult("pipeline_transition", r)
}

func (s *Server) validateArtifacts(ctx context.Context, a ValidateArtifactsArgs) (Result, error) {
	req := pipeline.ValidateRequest{ProjectRequest: pipeline.ProjectRequest{Project: a.Project, ProjectPath: a.ProjectPath, Pipeline: a.Pipeline},
		Phase: a.Phase}
	return s.pipelineTool("validate_artifacts", a.Home, false, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
		return pipeline.Validate(ctx, h.Env, req)
	})
}

// pipelineTool runs a pipeline use-case in the home asked for (write:
// one that saves files) and returns its report as the tool's result; a
// failed use-case is a tool error with what its exit status means.
func (s *Server) pipelineTool(name, home string, write bool, use func(*pipelinehome.Home) (*pipeline.ModeReport, error)) (Result, error) {
	h, err := pipelinehome.Open(s.homeOptions(name, home, write))
	if err != nil {
		return nil, toolError(err)
	}
	defer h.Close()
	r, err := use(h)
	if err != nil {
		return nil, toolError(err)
	}
	return asResult(name, r)
}

// homeOptions say which pipeline home a tool opens (home: its argument),
// and how it saves there.
func (s *Server) homeOptions(name, home string, write bool) pipelinehome.Options {
	env := s.env(name)
	return pipelinehome.Options{Store: env.OpenStore, Home: pipelineHome(home), UserHome: cmdutil.UserHome(),
		Write: write, Tx: env.TxOptions(), Save: env.SaveOptions()}
}

// pipelineHome is the home folder asked for, else CURATOR_SDD_HOME ("" is
// the store's pipelines/ folder).
func pipelineHome(home string) string {
	if home == "" {
		return os.Getenv("CURATOR_SDD_HOME")
	}
	return home
}
