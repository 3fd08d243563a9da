package pipelinecmd

import (
	"fmt"
	"strings"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
)

// printReport prints what a mode did: one JSON document with --json, else
// lines for a person.
func printReport(o cmdutil.Env, r *pipeline.ModeReport) error {
	if o.Globals.JSON {
		return o.PrintJSON(r)
	}
	if st := r.State; st != nil && r.Mode != "validate" {
		// the state's blockers are listed unless the checks below name
		// the same problems: each is printed once
		printState(o, st, !r.Failed())
	}
	for _, c := range r.Checks {
		mark := o.Mark(cmdutil.StatusOK)
		if !c.OK {
			mark = o.Mark(cmdutil.StatusBlocked)
		}
		name := c.Path
		if name == "" {
			name = c.Type
		}
		o.Say("%s %s", mark, name)
		if t := c.Tasks; t != nil && c.OK {
			o.Say(" (%d of %d tasks done)", t.Done, t.Done+t.Open)
		}
		if len(c.Problems) > 0 {
			o.Say(": %s", strings.Join(c.Problems, "; "))
		}
		o.Say("\n")
		if r.Mode == "validate" { // other modes list them with their warnings
			for _, w := range c.Warnings {
				o.Say("%s %s\n", o.Mark(cmdutil.StatusWarning), w)
			}
		}
	}
	if r.Brief != "" {
		o.Say("Brief: %s\n", r.Brief)
	}
	if b := r.Budget; b != nil {
		o.Say("Budget: %s — about %d of %d tokens", budgetMark(o, b.Status)+b.Label, b.Tokens, b.Limit)
		if len(b.Compressed) > 0 {
			o.Say(" (compressed from %d: %s)", b.RawTokens, strings.Join(b.Compressed, ", "))
		}
		o.Say("\n")
	}
	if r.Mode != "validate" {
		for _, w := range r.Warnings {
			o.Say("%s %s\n", o.Mark(cmdutil.StatusWarning), w)
		}
	}
	if page := r.Dashboard(); page != "" {
		o.Say("Dashboard: %s\n", page)
	}
	if r.Commit != "" {
		o.Say("Commit: %.12s\n", r.Commit)
	}
	return nil
}

// printState prints the pipeline's position and one line per phase, and,
// with blockers, each blocker of a phase under it.
func printState(o cmdutil.Env, st *pipeline.State, blockers bool) {
	o.Say("%s · %s pipeline · %s\n", st.ProjectName, st.PipelineLabel(), st.OverallStatus)
	cur := fmt.Sprintf("%d. %s", st.CurrentPhase.PhaseNumber, st.CurrentPhase.PhaseName)
	if st.CurrentPhase.StepNumber > 0 {
		cur += fmt.Sprintf(" — step %d: %s", st.CurrentPhase.StepNumber, st.CurrentPhase.StepName)
	}
	o.Say("Current: %s\n", cur)
	if h := st.Hold; h != nil && st.OverallStatus == pipeline.OverallOnHold {
		o.Say("On hold since %s", h.Since)
		if h.Reason != "" {
			o.Say(": %s", h.Reason)
		}
		o.Say("\n")
	}
	if st.Reconstructed {
		o.Say("Reconstructed from the artifacts (confidence %.2f)\n", st.ReconstructionConfidence)
	}
	for _, ph := range st.Phases {
		extra := ""
		if n := len(ph.Steps); n > 0 {
			extra = fmt.Sprintf("  steps %d/%d", ph.StepsDone(), n)
		}
		if n := len(ph.Artifacts); n > 0 {
			extra += fmt.Sprintf("  %d artifact(s)", n)
		}
		o.Say("  %d. %-16s %-12s%s\n", ph.PhaseNumber, ph.PhaseName, ph.Status, extra)
		if blockers {
			for _, b := range ph.Blockers {
				o.Say("       blocked: %s\n", b.Message)
			}
		}
	}
}

// budgetMark is the budget's status symbol and a space on a terminal;
// elsewhere its label says it in words.
func budgetMark(o cmdutil.Env, status string) string {
	if !o.IO.OutTTY {
		return ""
	}
	return status + " "
}
