package hooks

import "github.com/curator-dev/curator/pipeline"

// Event is a moment of the development loop that a transition marks.
type Event string

// The events, in the order their curations run when one transition marks
// several.
const (
	// StepDone: a transition out of a step-wise phase (the implementer,
	// one user story per step): to its next step, or to another phase
	// after its last step.
	StepDone Event = "step_done"
	// Approval: a forward transition (to a later phase, or done) out of a
	// phase that can send the work back, one that has a transition to an
	// earlier phase (the reviewer, the ui-reviewer, the verifier).
	Approval Event = "approval"
	// PhaseCompleted: a forward transition, to a later phase or done.
	PhaseCompleted Event = "phase_completed"
	// PipelineCompleted: the transition to done after the last phase.
	PipelineCompleted Event = "pipeline_completed"
)

// Events are every event, in their order.
var Events = []Event{StepDone, Approval, PhaseCompleted, PipelineCompleted}

// Said is the event in words ("step done").
func (e Event) Said() string {
	switch e {
	case StepDone:
		return "step done"
	case Approval:
		return "approval"
	case PhaseCompleted:
		return "phase completed"
	case PipelineCompleted:
		return "pipeline completed"
	}
	return string(e)
}

// EventsOf are the events the transition from→to of pipeline p marks, in
// their order; a transition back to an earlier phase (rework) marks none,
// unless it leaves a step-wise phase.
func EventsOf(p *pipeline.Pipeline, from, to string) []Event {
	fromNum, fromDef, err := p.Phase(from)
	if err != nil {
		return nil
	}
	toNum := len(p.Phases) + 1
	if to != pipeline.Done {
		if toNum, _, err = p.Phase(to); err != nil {
			return nil
		}
	}
	forward := toNum > fromNum
	var out []Event
	if fromDef.Steps == pipeline.ChunkByUserStory {
		out = append(out, StepDone)
	}
	if forward && sendsBack(p, from, fromNum) {
		out = append(out, Approval)
	}
	if forward {
		out = append(out, PhaseCompleted)
	}
	if to == pipeline.Done {
		out = append(out, PipelineCompleted)
	}
	return out
}

// sendsBack reports whether phase from (number num) has a transition to an
// earlier phase: its work is a review that approves or sends back.
func sendsBack(p *pipeline.Pipeline, from string, num int) bool {
	for _, t := range p.Transitions {
		if t.From != from || t.To == pipeline.Done {
			continue
		}
		if n, _, err := p.Phase(t.To); err == nil && n < num {
			return true
		}
	}
	return false
}
