package pipelinecmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/hooks"
)

// TransitionOptions are what `pipeline transition` was asked to do.
type TransitionOptions struct {
	HomeOptions
	Pipeline, From, To string
	// Step is the user story of a step-wise phase (0: the first).
	Step int
	// ProjectPath is --project-path, absolute ("" when not given).
	ProjectPath string
	// SkipRemaining is --skip-remaining: the reason recorded on the steps
	// of the phase that ends which never ran.
	SkipRemaining string
	// NoHooks is --no-hooks: the curations the transition triggers do not
	// run.
	NoHooks bool
}

// NewCmdTransition builds `curator pipeline transition`; runF replaces the run in tests.
func NewCmdTransition(f *cmdutil.Factory, runF func(*TransitionOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "transition",
		Usage: "validate the phase that ends, write the brief for the next one, update the state",
		Flags: []cli.Flag{projectFlag(), homeFlag(), projectPathFlag(), pipelineFlag(true),
			&cli.StringFlag{Name: "from", Usage: "the phase that ends", Required: true},
			&cli.StringFlag{Name: "to", Usage: "the phase that begins (or \"done\" after the last phase)", Required: true},
			&cli.IntFlag{Name: "step", Usage: "the user story of a step-wise phase", DefaultText: "1"},
			&cli.StringFlag{Name: "skip-remaining", Usage: "mark the steps of the phase that ends which never ran as skipped, with this reason (else they stay pending)"},
			&cli.BoolFlag{Name: "no-hooks", Usage: "do not run the playbook curations this transition triggers (pipelines.hooks in config.yaml)"},
		},
		Action: func(c *cli.Context) error {
			opts := &TransitionOptions{HomeOptions: homeOptions(f, c), Pipeline: c.String("pipeline"),
				From: c.String("from"), To: c.String("to"), Step: c.Int("step"), SkipRemaining: c.String("skip-remaining"), NoHooks: c.Bool("no-hooks")}
			var err error
			if opts.ProjectPath, err = projectPath(c); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Transition(opts)
		},
	}
}

// Transition hands the pipeline over from one phase to the next and
// records the new state, brief and dashboard as one run; then the
// curations its events trigger run, each its own commit.
func Transition(opts *TransitionOptions) error {
	req := hooks.TransitionRequest{NoHooks: opts.NoHooks, Agent: opts.Globals.Agent, TransitionRequest: pipeline.TransitionRequest{Project: opts.Project,
		Pipeline: opts.Pipeline, From: opts.From, To: opts.To, Step: opts.Step, ProjectPath: opts.ProjectPath, SkipRemaining: opts.SkipRemaining}}
	r, runErr := hooks.Transition(context.Background(), opts.homeOptions(true), req)
	if r == nil {
		return runErr
	}
	for _, h := range r.Hooks {
		switch {
		case h.Failed():
			opts.Warn("the curation at %s (%s) failed, the transition is saved: %s\n", h.Event.Said(), h.Command, h.Error)
		case h.Error != "":
			opts.Warn("the curation at %s (%s) %s\n", h.Event.Said(), h.Command, h.Error)
		}
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(r); err != nil {
			return err
		}
		return opts.finish(runErr)
	}
	if err := printReport(opts.Env, r.ModeReport); err != nil {
		return err
	}
	printHooks(opts.Env, r)
	return opts.finish(runErr)
}

// printHooks prints one line per curation the transition triggered, and
// the commit that added what they found to the brief.
func printHooks(o cmdutil.Env, r *hooks.TransitionReport) {
	if len(r.Hooks) == 0 {
		return
	}
	o.Say("Curations:\n")
	for _, h := range r.Hooks {
		mark := o.Mark(cmdutil.StatusOK)
		switch {
		case h.Failed():
			mark = o.Mark(cmdutil.StatusBlocked)
		case len(h.Skipped) > 0 || len(h.Waiting) > 0:
			mark = o.Mark(cmdutil.StatusWarning)
		}
		o.Say("  %s %s → %s: %s", mark, h.Event.Said(), h.Command, h.Summary)
		if h.Commit != "" {
			o.Say(" (commit %.12s)", h.Commit)
		}
		o.Say("\n")
		for _, inv := range h.Skipped {
			o.Say("      skipped %s (left as it is)\n", inv.Error())
		}
	}
	if r.BriefCommit != "" {
		o.Say("Brief warnings: %.12s\n", r.BriefCommit)
	}
}
