package hooks

import (
	"context"
	"errors"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// TransitionRequest is a transition and whether its curations run.
type TransitionRequest struct {
	pipeline.TransitionRequest
	// NoHooks skips the curations (`--no-hooks`).
	NoHooks bool
	// Agent is the agent asking, whose access level the curations need
	// (config.yaml's access section; "" unnamed).
	Agent string
	// Relevant are this transition's settings of the brief's relevant
	// context, over config.yaml's `pipelines.relevant_context`.
	Relevant RelevantSettings
}

// TransitionReport is the transition's report, with the curations it
// triggered.
type TransitionReport struct {
	*pipeline.ModeReport
	Hooks []Hook `json:"hooks"`
	// BriefCommit is the commit that added the curations' warnings to the
	// next agent's brief ("" when there were none to add).
	BriefCommit string `json:"brief_commit,omitempty"`
}

// Transition runs the transition (pipeline.Transition, in the home o opens,
// one commit) and then, once it is saved and unless NoHooks, the
// curations its events trigger in the store (Run), each its own commit;
// last, what the next agent must know of them (failures, the bullets
// that wait for review) is added to the brief's warnings
// (pipeline.NoteBrief, one more commit). A curation that fails never
// undoes the transition: the error returned is the transition's, and the
// curations' failures are in the report's hooks. Without a store (a home
// outside every store, and none found) no curation runs: there is no
// playbook.
func Transition(ctx context.Context, o pipelinehome.Options, req TransitionRequest) (*TransitionReport, error) {
	if err := req.Relevant.Check(); err != nil {
		return nil, err
	}
	o.Write = true
	rc, err := relevantContext(ctx, o, req.Relevant)
	if err != nil {
		return nil, err
	}
	req.TransitionRequest.Relevant = rc
	h, err := pipelinehome.Open(o)
	if err != nil {
		return nil, err
	}
	r, runErr := pipeline.Transition(ctx, h.Env, h.Saver(), req.TransitionRequest)
	var p *pipeline.Pipeline
	if r != nil && r.State != nil {
		p, _ = h.Env.Config.Pipeline(r.State.Pipeline())
	}
	h.Close()
	if r == nil {
		return nil, runErr
	}
	out := &TransitionReport{ModeReport: r, Hooks: []Hook{}}
	if runErr != nil || req.NoHooks || p == nil {
		return out, runErr
	}
	s, err := o.Store()
	if errors.Is(err, mdstore.ErrNoStore) {
		return out, nil
	}
	if err == nil {
		out.Hooks, err = Run(ctx, s, Request{Pipeline: p, From: req.From, To: req.To, Saving: playbook.Saving{Tx: o.Tx, Save: o.Save, Agent: req.Agent}})
	}
	if err != nil {
		r.Warnings = append(r.Warnings, "the curations of this transition did not run: "+err.Error())
		return out, nil
	}
	if notes := BriefWarnings(out.Hooks); len(notes) > 0 && r.Brief != "" {
		if out.BriefCommit, err = noteBrief(ctx, o, r.Project, notes); err != nil {
			r.Warnings = append(r.Warnings, "the brief does not name what the curations found: "+err.Error())
		}
	}
	return out, nil
}

// relevantContext is where the brief's relevant context comes from: the
// store's playbook and memories, with config.yaml's settings and the
// transition's over them; nil without a store.
func relevantContext(ctx context.Context, o pipelinehome.Options, flags RelevantSettings) (*pipeline.RelevantContext, error) {
	s, err := o.Store()
	if errors.Is(err, mdstore.ErrNoStore) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	set, err := LoadRelevantSettings(s)
	if err != nil {
		return nil, err
	}
	return &pipeline.RelevantContext{Source: storeContext{ctx: ctx, s: s}, Options: set.Over(flags).Options()}, nil
}

// noteBrief adds notes to the project's brief, in the home opened again.
func noteBrief(ctx context.Context, o pipelinehome.Options, project string, notes []string) (string, error) {
	h, err := pipelinehome.Open(o)
	if err != nil {
		return "", err
	}
	defer h.Close()
	return pipeline.NoteBrief(ctx, h.Env, h.Saver(), pipeline.BriefNoteRequest{Project: project, Why: "curations", Warnings: notes})
}
