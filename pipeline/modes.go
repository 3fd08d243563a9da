package pipeline

import (
	"fmt"
	"strings"
)

// ProjectRequest names a project, and optionally its folder and pipeline
// type (used when there is no state to read them from).
type ProjectRequest struct {
	Project, ProjectPath, Pipeline string
	// WorkDir is the folder curator runs in (absolute). Resume, reconstruct
	// and validate take it as the project folder when none is given and the
	// state records none.
	WorkDir string
}

// status reports the state and the drift of its validated artifacts; it
// changes nothing.
func (e *Env) status(req ProjectRequest) (*Report, error) {
	l, err := e.open(req.Project)
	if err != nil {
		return nil, err
	}
	if l.Aside != nil {
		return nil, fmt.Errorf("%s: state file is corrupt (run `curator pipeline reconstruct`)", StateName(req.Project))
	}
	if l.State == nil {
		return nil, fmt.Errorf("%w for project %s (start it with `curator pipeline transition`)", ErrNoState, req.Project)
	}
	r := &Report{Mode: "status", Project: req.Project, State: l.State}
	if e.Config.Settings.Drift() {
		r.Drift = DetectDrift(l.State)
	}
	r.Warnings = driftWarnings(r.Drift)
	if ph := l.State.Phase(l.State.CurrentPhase.PhaseName); ph != nil {
		r.BriefPath = ph.ContextBriefPath
	}
	return r, nil
}

// resume picks a pipeline up where it stands: it loads the state (or
// reconstructs it from the artifacts when it is missing or corrupt), finds
// the current phase and step, validates the current phase's artifacts as
// they are now (drift included), writes a fresh brief for the current phase
// and step, and saves the state and the dashboard. It never advances the
// pipeline; a completed pipeline gets no brief.
func (e *Env) resume(req ProjectRequest) (*Report, error) {
	l, err := e.open(req.Project)
	if err != nil {
		return nil, err
	}
	r := &Report{Mode: "resume", Project: req.Project}
	st := l.State
	if st == nil {
		// with no state at all, a folder without any of the pipeline's
		// files is most likely the wrong one: nothing is recorded
		if r, st, err = e.reconstructed(req, l, l.Aside == nil); err != nil {
			return nil, err
		}
		r.Mode = "resume"
	} else if req.ProjectPath != "" {
		st.ProjectPath = req.ProjectPath
	}
	if !statOK(st.ProjectPath) {
		return nil, fmt.Errorf("project folder %s does not exist", st.ProjectPath)
	}
	p, err := e.Config.Pipeline(st.Pipeline())
	if err != nil {
		return nil, err
	}
	syncPhases(st, p)
	num, def, err := p.Phase(st.CurrentPhase.PhaseName)
	if err != nil {
		return nil, err
	}
	now := e.now()
	checks, err := ValidatePhase(st.ProjectPath, def, now)
	if err != nil {
		return nil, err
	}
	r.Checks = checks
	for _, c := range checks {
		if c.Path != "" && !c.OK {
			r.Warnings = append(r.Warnings, fmt.Sprintf("current phase %s: %s does not validate yet: %s", def.Name, c.Path, strings.Join(c.Problems, "; ")))
		}
		r.Warnings = append(r.Warnings, c.Warnings...)
	}
	if st.OverallStatus == OverallCompleted {
		r.Drift = DetectDrift(st)
		r.Warnings = append(driftWarnings(r.Drift), r.Warnings...)
		r.Decisions = append(r.Decisions, "resumed a completed pipeline: no brief to write")
		return r, e.finish(r, st, l.Raw)
	}
	if err := e.brief(r, st, p, leadingTransition(p, num), def, st.CurrentPhase.StepNumber, nil, now, nil); err != nil {
		return nil, err
	}
	at := st.CurrentPhase.PhaseName
	if st.CurrentPhase.StepNumber > 0 {
		at += fmt.Sprintf(" step %d", st.CurrentPhase.StepNumber)
	}
	r.Decisions = append(r.Decisions, fmt.Sprintf("resumed at %s: brief %s (%s %d tokens)", at, r.BriefPath, r.Budget.Status, r.Budget.Tokens))
	return r, e.finish(r, st, l.Raw)
}

// reconstruct infers the state from the artifacts on disk and writes it,
// keeping every phase the old state says is completed.
func (e *Env) reconstruct(req ProjectRequest) (*Report, error) {
	l, err := e.open(req.Project)
	if err != nil {
		return nil, err
	}
	r, st, err := e.reconstructed(req, l, false)
	if err != nil {
		return nil, err
	}
	r.Drift = DetectDrift(st)
	return r, e.finish(r, st, l.Raw)
}

// reconstructed infers a state from the artifacts (and from what the old
// state, or its newest backup, still says); the report carries the notes.
// With needFiles, finding none of the pipeline's artifacts is an error
// wrapping ErrNoArtifacts that names the folder searched.
func (e *Env) reconstructed(req ProjectRequest, l *loaded, needFiles bool) (*Report, *State, error) {
	r := &Report{Mode: "reconstruct", Project: req.Project}
	old := l.State
	if l.Aside != nil {
		r.Files = append(r.Files, *l.Aside)
		r.Warnings = append(r.Warnings, l.Problem)
		old = l.Previous
	}
	path, typ := req.ProjectPath, req.Pipeline
	if old != nil {
		if path == "" {
			path = old.ProjectPath
		}
		if typ == "" {
			typ = old.Pipeline()
		}
	}
	if path == "" {
		path = req.WorkDir
	}
	if path == "" {
		return nil, nil, fmt.Errorf("reconstructing %s: the project folder is needed (--project-path)", req.Project)
	}
	if !statOK(path) {
		return nil, nil, fmt.Errorf("project folder %s does not exist", path)
	}
	now := e.now()
	ambiguous := false
	if typ == "" {
		var err error
		if typ, ambiguous, err = InferPipeline(e.Config, path, now); err != nil {
			return nil, nil, err
		}
	}
	p, err := e.Config.Pipeline(typ)
	if err != nil {
		return nil, nil, err
	}
	st, notes, found, err := reconstructState(e.Config, p, req.Project, path, old, now)
	if err != nil {
		return nil, nil, err
	}
	if needFiles && !found && old == nil {
		if req.Pipeline == "" {
			return nil, nil, wrongFolder(fmt.Errorf("%w for %s and %w of any pipeline in %s", ErrNoState, req.Project, ErrNoArtifacts, path))
		}
		return nil, nil, wrongFolder(fmt.Errorf("%w for %s and %w of the %s pipeline in %s: %s", ErrNoState, req.Project, ErrNoArtifacts, typ, path, lookedFor(p, path, now)))
	}
	if ambiguous {
		st.ReconstructionConfidence = max(0.1, st.ReconstructionConfidence-0.2)
		notes = append(notes, "pipeline type "+typ+" was inferred; the artifacts fit other types as well (pass --pipeline)")
	}
	r.Warnings = append(r.Warnings, notes...)
	r.Decisions = append(r.Decisions, fmt.Sprintf("reconstructed %s pipeline at %s (confidence %.2f)", typ, st.CurrentPhase.PhaseName, st.ReconstructionConfidence))
	r.Decisions = append(r.Decisions, notes...)
	return r, st, nil
}

// refresh writes a new brief for the current phase and step from the
// artifacts as they are now. It never changes the state and never
// reconstructs it.
func (e *Env) refresh(req ProjectRequest) (*Report, error) {
	l, err := e.open(req.Project)
	if err != nil {
		return nil, err
	}
	if l.State == nil {
		return nil, fmt.Errorf("%w for project %s: refresh does not reconstruct (run `curator pipeline resume` or `reconstruct`)", ErrNoState, req.Project)
	}
	st := l.State
	p, err := e.Config.Pipeline(st.Pipeline())
	if err != nil {
		return nil, err
	}
	num, def, err := p.Phase(st.CurrentPhase.PhaseName)
	if err != nil {
		return nil, err
	}
	t := leadingTransition(p, num)
	r := &Report{Mode: "refresh", Project: req.Project}
	if err := e.brief(r, st, p, t, def, st.CurrentPhase.StepNumber, nil, e.now(), nil); err != nil {
		return nil, err
	}
	r.Decisions = append(r.Decisions, fmt.Sprintf("refreshed brief %s (%s %d tokens)", r.BriefPath, r.Budget.Status, r.Budget.Tokens))
	r.State = st
	return r, e.dashboard(r, st)
}

// leadingTransition is the rule that leads into phase num: the one from the
// phase before it, else any one into it, else a plain full handoff.
func leadingTransition(p *Pipeline, num int) *TransitionRule {
	to := p.Phases[num-1].Name
	var any *TransitionRule
	for i := range p.Transitions {
		t := &p.Transitions[i]
		if t.To != to {
			continue
		}
		if num > 1 && t.From == p.Phases[num-2].Name {
			return t
		}
		if any == nil {
			any = t
		}
	}
	if any != nil {
		return any
	}
	return &TransitionRule{From: to, To: to, Chunking: ChunkFull}
}

// restart sends the named phase and every later one back to pending and
// invalidates their validations; no artifact file is touched.
func (e *Env) restart(req ProjectRequest, phase string) (*Report, error) {
	l, err := e.open(req.Project)
	if err != nil {
		return nil, err
	}
	if l.State == nil {
		return nil, fmt.Errorf("%w for project %s", ErrNoState, req.Project)
	}
	st := l.State
	p, err := e.Config.Pipeline(st.Pipeline())
	if err != nil {
		return nil, err
	}
	num, _, err := p.Phase(phase)
	if err != nil {
		return nil, err
	}
	syncPhases(st, p)
	var reset []string
	for i := num - 1; i < len(st.Phases); i++ {
		ph := &st.Phases[i]
		ph.Status, ph.StartedAt, ph.CompletedAt, ph.ContextBriefPath, ph.Blockers = StatusPending, "", "", "", nil
		for j := range ph.Artifacts {
			ph.Artifacts[j].ValidatedAt = ""
		}
		for j := range ph.Steps {
			s := &ph.Steps[j]
			s.Status, s.StartedAt, s.CompletedAt, s.ContextBriefPath = StatusPending, "", "", ""
		}
		reset = append(reset, ph.PhaseName)
	}
	st.CurrentPhase = Position{PhaseNumber: num, PhaseName: phase, Extra: st.CurrentPhase.Extra}
	st.OverallStatus = OverallInProgress
	r := &Report{Mode: "restart", Project: req.Project}
	r.Decisions = append(r.Decisions, "restarted at "+phase+"; back to pending: "+strings.Join(reset, ", "))
	r.Drift = DetectDrift(st)
	return r, e.finish(r, st, l.Raw)
}

// validate checks the artifacts of one phase (default: the current phase,
// or every phase when there is no state). It changes nothing; Checks tell
// what failed.
func (e *Env) validate(req ProjectRequest, phase string) (*Report, error) {
	l, err := e.open(req.Project)
	if err != nil {
		return nil, err
	}
	path, typ := req.ProjectPath, req.Pipeline
	if l.State != nil {
		if path == "" {
			path = l.State.ProjectPath
		}
		if typ == "" {
			typ = l.State.Pipeline()
		}
		if phase == "" {
			phase = l.State.CurrentPhase.PhaseName
		}
	}
	if typ == "" {
		typ = "sdd"
	}
	if path == "" && l.State == nil && l.Aside == nil {
		// No state file: the project is the working directory.
		path = req.WorkDir
	}
	if path == "" {
		return nil, fmt.Errorf("validating %s: the project folder is needed (--project-path)", req.Project)
	}
	p, err := e.Config.Pipeline(typ)
	if err != nil {
		return nil, err
	}
	r := &Report{Mode: "validate", Project: req.Project, State: l.State}
	var defs []*PhaseDef
	if phase != "" {
		_, def, err := p.Phase(phase)
		if err != nil {
			return nil, err
		}
		defs = append(defs, def)
	} else {
		// No state and no phase: the phases whose artifacts are there (or
		// the first phase when there are none).
		for i := range p.Phases {
			if rel, err := findFirst(path, &p.Phases[i]); err == nil && rel != "" {
				defs = append(defs, &p.Phases[i])
			}
		}
		if len(defs) == 0 {
			defs = append(defs, &p.Phases[0])
		}
	}
	for _, def := range defs {
		checks, err := ValidatePhase(path, def, e.now())
		if err != nil {
			return nil, err
		}
		for _, b := range blockersOf(def.Name, checks, e.now()) {
			r.Warnings = append(r.Warnings, b.Message)
		}
		r.Checks = append(r.Checks, checks...)
	}
	if len(r.Warnings) > 0 {
		where := ""
		if missing := NotFound(path, r.Checks); missing != "" {
			where = fmt.Sprintf(" (looked in %s; pass --project-path DIR if the project is elsewhere)", path)
		}
		return r, fmt.Errorf("%w%s:\n  %s", ErrNotValid, where, strings.Join(r.Warnings, "\n  "))
	}
	return r, nil
}

// findFirst returns the first artifact of a phase found in the project.
func findFirst(project string, ph *PhaseDef) (string, error) {
	for _, rule := range ph.Artifacts {
		if rel, err := findArtifact(project, rule); err != nil || rel != "" {
			return rel, err
		}
	}
	return "", nil
}
