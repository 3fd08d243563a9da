package pipeline

import (
	"errors"
	"fmt"
)

// ErrOnHold means a handoff was asked of a pipeline that is on hold.
var ErrOnHold = errors.New("pipeline is on hold")

// hold puts a pipeline on hold: overall_status becomes on-hold, with the
// reason and the time recorded, until Continue. A pipeline on hold makes no
// handoff; status, resume and refresh still work.
func (e *Env) hold(req ProjectRequest, reason string) (*Report, error) {
	l, st, err := e.openState(req.Project)
	if err != nil {
		return nil, err
	}
	if st.OverallStatus == OverallCompleted {
		return nil, fmt.Errorf("pipeline %s is completed: there is nothing to hold", req.Project)
	}
	r := &Report{Mode: "hold", Project: req.Project}
	if st.Hold == nil {
		st.Hold = &HoldRecord{Since: stamp(e.now()), Status: st.OverallStatus}
	}
	if reason != "" {
		st.Hold.Reason = reason
	}
	st.OverallStatus = OverallOnHold
	r.Decisions = append(r.Decisions, "on hold at "+st.CurrentPhase.PhaseName+reasonText(st.Hold.Reason))
	return r, e.finish(r, st, l.Raw)
}

// unhold takes a pipeline off hold: it goes back to the overall status it
// had (in-progress or blocked).
func (e *Env) unhold(req ProjectRequest) (*Report, error) {
	l, st, err := e.openState(req.Project)
	if err != nil {
		return nil, err
	}
	if st.OverallStatus != OverallOnHold {
		return nil, fmt.Errorf("pipeline %s is not on hold (it is %s)", req.Project, st.OverallStatus)
	}
	r := &Report{Mode: "continue", Project: req.Project}
	st.OverallStatus = OverallInProgress
	if st.Hold != nil && st.Hold.Status == OverallBlocked {
		st.OverallStatus = OverallBlocked
	}
	st.Hold = nil
	r.Decisions = append(r.Decisions, "continued at "+st.CurrentPhase.PhaseName)
	return r, e.finish(r, st, l.Raw)
}

// skip marks a phase skipped (with the reason as its summary). When it is
// the current phase, the pipeline moves on to the next phase that is
// neither completed nor skipped (or is completed when there is none); a
// handoff may then pass over the skipped phase. A completed phase is not
// skipped (restart it first).
func (e *Env) skip(req ProjectRequest, phase, reason string) (*Report, error) {
	l, st, err := e.openState(req.Project)
	if err != nil {
		return nil, err
	}
	p, err := e.Config.Pipeline(st.Pipeline())
	if err != nil {
		return nil, err
	}
	num, _, err := p.Phase(phase)
	if err != nil {
		return nil, err
	}
	syncPhases(st, p)
	ph := &st.Phases[num-1]
	if ph.Status == StatusCompleted {
		return nil, fmt.Errorf("phase %s is completed: restart it before skipping it", phase)
	}
	r := &Report{Mode: "skip", Project: req.Project}
	ph.Status, ph.Blockers, ph.CompletedAt = StatusSkipped, nil, ""
	ph.Summary = "Skipped" + reasonText(reason) + "."
	r.Decisions = append(r.Decisions, "skipped "+phase+reasonText(reason))
	if st.CurrentPhase.PhaseName == phase {
		next := -1
		for i := num; i < len(st.Phases); i++ {
			if s := st.Phases[i].Status; s != StatusCompleted && s != StatusSkipped {
				next = i
				break
			}
		}
		if next < 0 {
			if st.OverallStatus != OverallOnHold {
				st.OverallStatus = OverallCompleted
			}
			r.Decisions = append(r.Decisions, "no phase left: pipeline completed")
		} else {
			n := &st.Phases[next]
			n.Status = StatusInProgress
			if n.StartedAt == "" {
				n.StartedAt = stamp(e.now())
			}
			st.CurrentPhase = Position{PhaseNumber: next + 1, PhaseName: n.PhaseName, Extra: st.CurrentPhase.Extra}
			r.Decisions = append(r.Decisions, "current phase is now "+n.PhaseName+" (run `curator pipeline resume` for its brief)")
		}
	}
	if st.OverallStatus == OverallBlocked && !anyBlocked(st) {
		st.OverallStatus = OverallInProgress
	}
	if st.Hold != nil && st.Hold.Status == OverallBlocked && !anyBlocked(st) {
		st.Hold.Status = OverallInProgress
	}
	return r, e.finish(r, st, l.Raw)
}

// openState loads a project's state for a mode that needs one.
func (e *Env) openState(project string) (*loaded, *State, error) {
	l, err := e.open(project)
	if err != nil {
		return nil, nil, err
	}
	if l.Aside != nil {
		return nil, nil, fmt.Errorf("%s: state file is corrupt (run `curator pipeline reconstruct`)", StateName(project))
	}
	if l.State == nil {
		return nil, nil, fmt.Errorf("%w for project %s", ErrNoState, project)
	}
	return l, l.State, nil
}

func anyBlocked(st *State) bool {
	for _, ph := range st.Phases {
		if ph.Status == StatusBlocked {
			return true
		}
	}
	return false
}

func reasonText(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

// skippedBetween reports whether every phase strictly between from and to
// (in pipeline order) is skipped in the state, and there is at least one.
func skippedBetween(p *Pipeline, st *State, from, to string) bool {
	a, _, err1 := p.Phase(from)
	b, _, err2 := p.Phase(to)
	if err1 != nil || err2 != nil || b-a < 2 {
		return false
	}
	for i := a; i < b-1; i++ {
		if ph := st.Phase(p.Phases[i].Name); ph == nil || ph.Status != StatusSkipped {
			return false
		}
	}
	return true
}

func holdSince(st *State) string {
	if st.Hold == nil {
		return "an earlier run"
	}
	return st.Hold.Since
}

func holdReason(st *State) string {
	if st.Hold == nil {
		return ""
	}
	return st.Hold.Reason
}
