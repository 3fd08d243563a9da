package mcpcmd

import (
	"context"

	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// PipelineProjectArgs are the parameters every pipeline mode tool takes,
// as the commands' --project and --home: the only ones of
// pipeline_refresh and pipeline_continue.
type PipelineProjectArgs struct {
	Project string `json:"project,omitempty" jsonschema:"the project name, a plain file name (may be left out when the home holds exactly one pipeline)"`
	Home    string `json:"home,omitempty" jsonschema:"folder of the pipeline files (default: CURATOR_SDD_HOME, else the store's pipelines/ folder)"`
}

// PipelineResumeArgs are pipeline_resume's parameters.
type PipelineResumeArgs struct {
	PipelineProjectArgs
	Pipeline    string `json:"pipeline,omitempty" jsonschema:"pipeline type (sdd, ui-lifecycle, debug, full-product, or one from pipeline-config.json) when the state is reconstructed (default: the recorded one)"`
	ProjectPath string `json:"project_path,omitempty" jsonschema:"the project folder holding the artifacts, ~ for the home folder (default: the recorded one, else the server's working directory)"`
}

// PipelineRestartArgs are pipeline_restart's parameters.
type PipelineRestartArgs struct {
	PipelineProjectArgs
	Phase string `json:"phase" jsonschema:"the phase to restart at"`
}

// PipelineSkipArgs are pipeline_skip's parameters.
type PipelineSkipArgs struct {
	PipelineProjectArgs
	Phase  string `json:"phase" jsonschema:"the phase to skip"`
	Reason string `json:"reason,omitempty" jsonschema:"why the phase is skipped (its summary in the state)"`
}

// PipelineHoldArgs are pipeline_hold's parameters.
type PipelineHoldArgs struct {
	PipelineProjectArgs
	Reason string `json:"reason,omitempty" jsonschema:"why the pipeline is on hold (recorded in the state)"`
}

func (s *Server) addPipelineModeTools() {
	tool(s, "pipeline_resume", "Pick a pipeline up where it stands, without advancing it: validate the current phase's artifacts, "+
		"write a fresh brief for the current phase and step, save the state and dashboard (one commit when the files are in the "+
		"store); a missing or corrupt state is reconstructed from the artifacts (as `curator pipeline resume --json`).",
		func(ctx context.Context, a PipelineResumeArgs) (Result, error) {
			req := pipeline.ProjectRequest{Project: a.Project, ProjectPath: a.ProjectPath, Pipeline: a.Pipeline}
			return s.pipelineTool("pipeline_resume", a.Home, true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
				return pipeline.Resume(ctx, h.Env, h.Saver(), req)
			})
		})
	tool(s, "pipeline_refresh", "Write a new brief for the current phase and step; the state is not changed "+
		"(as `curator pipeline refresh --json`).",
		func(ctx context.Context, a PipelineProjectArgs) (Result, error) {
			return s.pipelineTool("pipeline_refresh", a.Home, true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
				return pipeline.Refresh(ctx, h.Env, h.Saver(), pipeline.ProjectRequest{Project: a.Project})
			})
		})
	tool(s, "pipeline_restart", "Send a phase and every later one back to pending; artifact files are not touched "+
		"(as `curator pipeline restart --json`).",
		func(ctx context.Context, a PipelineRestartArgs) (Result, error) {
			return s.pipelineTool("pipeline_restart", a.Home, true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
				return pipeline.Restart(ctx, h.Env, h.Saver(), pipeline.PhaseRequest{Project: a.Project, Phase: a.Phase})
			})
		})
	tool(s, "pipeline_hold", "Put a pipeline on hold (overall status on-hold, the reason recorded) until pipeline_continue; "+
		"no handoff is made meanwhile (as `curator pipeline hold --json`).",
		func(ctx context.Context, a PipelineHoldArgs) (Result, error) {
			return s.pipelineTool("pipeline_hold", a.Home, true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
				return pipeline.Hold(ctx, h.Env, h.Saver(), pipeline.HoldRequest{Project: a.Project, Reason: a.Reason})
			})
		})
	tool(s, "pipeline_continue", "Take a pipeline off hold: back to in-progress, or blocked if it was "+
		"(as `curator pipeline continue --json`).",
		func(ctx context.Context, a PipelineProjectArgs) (Result, error) {
			return s.pipelineTool("pipeline_continue", a.Home, true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
				return pipeline.Continue(ctx, h.Env, h.Saver(), pipeline.ProjectRequest{Project: a.Project})
			})
		})
	tool(s, "pipeline_skip", "Mark a phase skipped, with the reason as its summary; the current phase moves on, and a "+
		"handoff may pass over it (as `curator pipeline skip --json`).",
		func(ctx context.Context, a PipelineSkipArgs) (Result, error) {
			return s.pipelineTool("pipeline_skip", a.Home, true, func(h *pipelinehome.Home) (*pipeline.ModeReport, error) {
				return pipeline.Skip(ctx, h.Env, h.Saver(), pipeline.PhaseRequest{Project: a.Project, Phase: a.Phase, Reason: a.Reason})
			})
		})
}
