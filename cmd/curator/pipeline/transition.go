package pipelinecmd

import (
	"context"
	"strings"

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
	// Relevant are the flags of the brief's relevant context.
	Relevant hooks.RelevantSettings
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
			&cli.BoolFlag{Name: "no-relevant-context", Usage: "leave the relevant playbook bullets and memories out of the brief"},
			&cli.IntFlag{Name: "relevant-bullets", Usage: "the most playbook bullets the brief's relevant context holds (0: none)", DefaultText: "pipelines.relevant_context.bullets, else 5"},
			&cli.IntFlag{Name: "relevant-memories", Usage: "the most confirmed memories the brief's relevant context holds (0: none)", DefaultText: "pipelines.relevant_context.memories, else 3"},
			&cli.StringSliceFlag{Name: "relevant-category", Usage: "only bullets of these categories in the relevant context (repeat, or a comma list)", DefaultText: "every category"},
			&cli.StringSliceFlag{Name: "relevant-memory-type", Usage: "only memories of these types (fact, concept, lesson) in the relevant context", DefaultText: "every type"},
		},
		Action: func(c *cli.Context) error {
			opts := &TransitionOptions{HomeOptions: homeOptions(f, c), Pipeline: c.String("pipeline"),
				From: c.String("from"), To: c.String("to"), Step: c.Int("step"), SkipRemaining: c.String("skip-remaining"), NoHooks: c.Bool("no-hooks")}
			var err error
			if opts.ProjectPath, err = projectPath(c); err != nil {
				return err
			}
			if opts.Relevant, err = relevantFlags(c); err != nil {
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
	req := hooks.TransitionRequest{NoHooks: opts.NoHooks, Agent: opts.Globals.Agent, Relevant: opts.Relevant, TransitionRequest: pipeline.TransitionRequest{Project: opts.Project,
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

// relevantFlags are the flags of the brief's relevant context: a count
// given turns it on for this transition, --no-relevant-context off.
func relevantFlags(c *cli.Context) (hooks.RelevantSettings, error) {
	var r hooks.RelevantSettings
	on := func() *bool { t := true; return &t }
	for name, n := range map[string]**int{"relevant-bullets": &r.Bullets, "relevant-memories": &r.Memories} {
		if c.IsSet(name) {
			v := c.Int(name)
			*n, r.Enabled = &v, on()
		}
	}
	split := func(name string) []string {
		var out []string
		for _, v := range c.StringSlice(name) {
			for _, part := range strings.Split(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					out = append(out, part)
				}
			}
		}
		return out
	}
	r.Categories, r.MemoryTypes = split("relevant-category"), split("relevant-memory-type")
	if c.Bool("no-relevant-context") {
		off := false
		r.Enabled = &off
	}
	if err := r.Check(); err != nil {
		return r, cmdutil.FlagError(err)
	}
	return r, nil
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
