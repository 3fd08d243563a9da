package pipeline

import (
	"github.com/curator-dev/curator/internal/refuse"

	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// TransitionRequest is one handoff: the phase From ends, To begins (at Step
// for a step-wise phase).
type TransitionRequest struct {
	Project, Pipeline, From, To string
	Step                        int
	// ProjectPath is the project folder (absolute); needed at the first
	// transition, and it replaces the recorded one when given.
	ProjectPath string
	// WorkDir is the folder curator runs in (absolute): the project folder
	// at the first transition when ProjectPath is not given.
	WorkDir string
	// SkipRemaining, when set, is the reason recorded on the steps of the
	// phase that ends which never ran: they become skipped rather than
	// staying pending.
	SkipRemaining string
	// Relevant is where the brief's relevant context comes from (nil:
	// the brief has none).
	Relevant *RelevantContext
}

// transition validates the artifacts of From, updates the state, and writes
// the brief for To: validate → chunk → curate → budget → brief → state →
// dashboard. When validation fails it returns the blocked state's files and
// an error wrapping ErrBlocked; a first transition that finds none of the
// phase's files (run in the wrong folder) returns no files, only the error.
func (e *Env) transition(req TransitionRequest) (*Report, error) {
	if req.Step < 0 {
		return nil, refuse.Requestf("step %d: steps count from 1", req.Step)
	}
	p, err := e.Config.Pipeline(req.Pipeline)
	if err != nil {
		return nil, err
	}
	l, err := e.open(req.Project)
	if err != nil {
		return nil, err
	}
	t, err := p.Transition(req.From, req.To)
	if err != nil && l.State != nil && skippedBetween(p, l.State, req.From, req.To) {
		// The phases in between are skipped: hand over as into To.
		num, _, _ := p.Phase(req.To)
		lead := *leadingTransition(p, num)
		lead.From, err = req.From, nil
		t = &lead
	}
	if err != nil {
		return nil, err
	}
	if l.State != nil && l.State.OverallStatus == OverallOnHold {
		return nil, fmt.Errorf("%w: %s (since %s%s); run `curator pipeline continue --project %s` first", ErrOnHold, req.Project,
			holdSince(l.State), reasonText(holdReason(l.State)), req.Project)
	}
	r := &Report{Mode: "transition", Project: req.Project, summary: fmt.Sprintf("pipeline %s: %s → %s", req.Project, req.From, req.To)}
	now := e.now()
	st := l.State
	if l.Aside != nil {
		r.Files = append(r.Files, *l.Aside)
		r.Warnings = append(r.Warnings, l.Problem)
		path := req.ProjectPath
		if path == "" && l.Previous != nil {
			path = l.Previous.ProjectPath
		}
		if path == "" {
			return nil, fmt.Errorf("%s; pass --project-path to reconstruct it", l.Problem)
		}
		if st, _, _, err = reconstructState(e.Config, p, req.Project, path, l.Previous, now); err != nil {
			return nil, err
		}
	}
	if st == nil {
		path := req.ProjectPath
		if path == "" {
			path = req.WorkDir
		}
		if path == "" {
			return nil, fmt.Errorf("first transition of %s: the project folder is needed (--project-path)", req.Project)
		}
		st = newState(p, req.Project, path, e.Config.Settings, now)
		r.Decisions = append(r.Decisions, "started "+p.Name+" pipeline "+st.PipelineID)
		if statOK(st.ProjectPath) {
			num, _, _ := p.Phase(req.From)
			decisions, warnings, err := earlierOnDisk(st, p, num, now)
			if err != nil {
				return nil, err
			}
			r.Decisions = append(r.Decisions, decisions...)
			r.Warnings = append(r.Warnings, warnings...)
		}
	}
	if st.Pipeline() != p.Name {
		return nil, fmt.Errorf("project %s runs a %s pipeline, not %s (restart it with the same type, or use another project name)", req.Project, st.Pipeline(), p.Name)
	}
	if req.ProjectPath != "" && req.ProjectPath != st.ProjectPath {
		st.ProjectPath = req.ProjectPath
	}
	if !statOK(st.ProjectPath) {
		return nil, fmt.Errorf("project folder %s does not exist", st.ProjectPath)
	}
	syncPhases(st, p)
	fromNum, fromDef, _ := p.Phase(req.From)
	from := &st.Phases[fromNum-1]

	checks, err := ValidatePhase(st.ProjectPath, fromDef, now)
	if err != nil {
		return nil, err
	}
	r.Checks = checks
	if blockers := blockersOf(req.From, checks, now); len(blockers) > 0 {
		missing := NotFound(st.ProjectPath, checks)
		if l.State == nil && l.Aside == nil && foundNone(checks) {
			// A first transition that finds none of the phase's files
			// was most likely run in the wrong folder: a pipeline is not
			// started on nothing.
			return nil, wrongFolder(fmt.Errorf("%w %s→%s: %s", ErrBlocked, req.From, req.To, missing))
		}
		from.Status, from.Blockers = StatusBlocked, blockers
		st.OverallStatus = OverallBlocked
		st.CurrentPhase = Position{PhaseNumber: fromNum, PhaseName: req.From, Extra: st.CurrentPhase.Extra}
		var msgs []string
		for _, b := range blockers {
			msgs = append(msgs, b.Message)
		}
		// the blockers are in the report's checks and the state, not
		// repeated as warnings
		r.Decisions = append(r.Decisions, "blocked "+req.From+"→"+req.To+": "+strings.Join(msgs, "; "))
		if err := e.finish(r, st, l.Raw); err != nil {
			return nil, err
		}
		r.summary += " blocked"
		where := ""
		if missing != "" {
			where = fmt.Sprintf(" (looked in %s; pass --project-path DIR if the project is elsewhere)", st.ProjectPath)
		}
		return r, fmt.Errorf("%w %s→%s%s:\n  %s", ErrBlocked, req.From, req.To, where, strings.Join(msgs, "\n  "))
	}

	// The phase that ends: record its validated artifacts.
	outlines := map[string]*Outline{}
	var main *Outline // the phase's main artifact: the first that validates
	from.Blockers = nil
	from.Artifacts = nil
	for _, c := range checks {
		if c.Path == "" {
			continue
		}
		from.Artifacts = append(from.Artifacts, c.Record)
		if c.OK {
			r.Warnings = append(r.Warnings, c.Warnings...)
			c.outline = e.redactOutline(c.Path, c.data, c.outline, r)
			outlines[c.Path] = c.outline
			accumulate(&st.AccumulatedContext, c.Path, req.From, stamp(now), c.outline)
			if main == nil {
				main = c.outline
			}
		} else {
			r.Warnings = append(r.Warnings, fmt.Sprintf("optional artifact %s: %s", c.Path, strings.Join(c.Problems, "; ")))
		}
	}
	if req.From != req.To {
		if from.StartedAt == "" {
			from.StartedAt = stamp(now)
		}
		if from.Status != StatusCompleted || from.CompletedAt == "" {
			from.Status, from.CompletedAt = StatusCompleted, stamp(now)
		}
		if never := completeSteps(from, 0, req.SkipRemaining, now); len(never) > 0 {
			if req.SkipRemaining != "" {
				r.Decisions = append(r.Decisions, fmt.Sprintf("%s: skipped step(s) %s that never ran: %s", req.From, joinInts(never), req.SkipRemaining))
			} else {
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s: step(s) %s never ran and stay pending (--skip-remaining REASON marks them skipped)", req.From, joinInts(never)))
			}
		}
		if main != nil {
			from.Summary = phaseSummary(main)
		}
	}
	r.Decisions = append(r.Decisions, fmt.Sprintf("validated %s (%d artifact(s))", req.From, len(from.Artifacts)))

	if req.To == Done {
		st.OverallStatus = OverallCompleted
		st.CurrentPhase = Position{PhaseNumber: fromNum, PhaseName: req.From, Extra: st.CurrentPhase.Extra}
		r.Decisions = append(r.Decisions, "pipeline completed")
		r.Drift = DetectDrift(st)
		r.Warnings = append(r.Warnings, driftWarnings(r.Drift)...)
		return r, e.finish(r, st, l.Raw)
	}

	toNum, toDef, _ := p.Phase(req.To)
	if toNum < fromNum { // rework: the phases after To are to be done again
		for i := toNum; i < len(st.Phases); i++ {
			st.Phases[i].Status, st.Phases[i].CompletedAt = StatusPending, ""
		}
	}
	to := &st.Phases[toNum-1]
	to.Status, to.Blockers, to.CompletedAt = StatusInProgress, nil, ""
	if to.StartedAt == "" {
		to.StartedAt = stamp(now)
	}
	st.OverallStatus = OverallInProgress
	st.CurrentPhase = Position{PhaseNumber: toNum, PhaseName: req.To, Extra: st.CurrentPhase.Extra}
	if err := e.brief(r, st, p, t, toDef, req.Step, outlines, now, req.Relevant); err != nil {
		return nil, err
	}
	r.Decisions = append(r.Decisions, fmt.Sprintf("%s → %s: brief %s (%s %d tokens)", req.From, req.To, r.BriefPath, r.Budget.Status, r.Budget.Tokens))
	return r, e.finish(r, st, l.Raw)
}

// completeSteps ends the steps before step (all steps when step is 0):
// a step that ran (it has a start time) is completed; one that never ran
// stays pending, or is skipped with skipReason when one is given. step
// becomes in progress and the later ones pending. It returns the numbers
// of the steps that never ran.
func completeSteps(ph *Phase, step int, skipReason string, now time.Time) []int {
	var never []int
	for i := range ph.Steps {
		s := &ph.Steps[i]
		switch n := s.StepNumber; {
		case step == 0 || n < step:
			switch {
			case s.Status == StatusCompleted || s.Status == StatusSkipped:
			case s.StartedAt != "":
				s.Status, s.CompletedAt = StatusCompleted, stamp(now)
			case skipReason != "":
				s.Status, s.CompletedAt, s.SkipReason = StatusSkipped, "", skipReason
				never = append(never, n)
			default:
				s.Status, s.CompletedAt = StatusPending, ""
				never = append(never, n)
			}
		case n == step:
			s.Status, s.CompletedAt, s.SkipReason = StatusInProgress, "", ""
			if s.StartedAt == "" {
				s.StartedAt = stamp(now)
			}
		default:
			s.Status, s.CompletedAt, s.SkipReason = StatusPending, "", ""
		}
	}
	return never
}

// joinInts is "1, 2, 3".
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// brief curates the sources of transition t into the brief of phase toDef
// (at step for a step-wise phase), with the relevant context of rc (nil:
// none), and records it in the state.
func (e *Env) brief(r *Report, st *State, p *Pipeline, t *TransitionRule, toDef *PhaseDef, step int, outlines map[string]*Outline, now time.Time, rc *RelevantContext) error {
	toNum, _, _ := p.Phase(toDef.Name)
	chunking := t.Chunking
	if chunking == "" {
		chunking = ChunkFull
	}
	stepwise := toDef.Steps == ChunkByUserStory && chunking == ChunkByUserStory
	if !stepwise {
		step = 0
	} else if step == 0 {
		step = 1
	}
	rule := *t
	rule.Chunking = chunking
	chunk := &Chunk{}
	var curated []Artifact
	for _, src := range sources(st, t, toNum) {
		abs, _, err := ProjectFile(st.ProjectPath, src.Path)
		if err != nil {
			return err
		}
		o := outlines[src.Path]
		if o == nil {
			data, err := os.ReadFile(abs)
			if err != nil {
				r.Warnings = append(r.Warnings, fmt.Sprintf("source %s cannot be read: %v", src.Path, err))
				continue
			}
			o = e.redactOutline(src.Path, data, readOutline(src.Path, data), r)
		}
		if err := curate(chunk, src.Path, src.Type, o, &rule, step); err != nil {
			return err
		}
		curated = append(curated, src)
	}
	if chunk.Step == 0 {
		step = 0
	}
	r.Stories = chunk.Stories
	to := &st.Phases[toNum-1]
	if step > 0 {
		setSteps(to, chunk.Stories)
		completeSteps(to, step, "", now)
		st.CurrentPhase.StepNumber, st.CurrentPhase.StepName = step, chunk.Stories[step-1].Title
	}
	r.Drift = DetectDrift(st)
	warnings := append(driftWarnings(r.Drift), r.Warnings...)
	for _, ph := range st.Phases {
		for _, b := range ph.Blockers {
			warnings = append(warnings, "Blocker: "+b.Message)
		}
	}
	name := BriefName(st.ProjectName, toNum, toDef.Name, step)
	prev := ""
	if from := st.Phase(t.From); from != nil && from.ContextBriefPath != "" && from.ContextBriefPath != name {
		prev = from.ContextBriefPath
	}
	refs := e.references(st, t, toNum, curated, prev)
	mission := toDef.Mission
	if mission == "" {
		mission = "Carry out the " + toDef.Name + " phase."
	}
	target := toDef.Name
	var err error
	if step > 0 {
		target += fmt.Sprintf(" (step %d of %d)", step, len(chunk.Stories))
	}
	d := &BriefData{
		Project: st.ProjectName, PipelineType: st.PipelineLabel(), PipelineID: st.PipelineID, ProjectPath: e.Shown(st.ProjectPath),
		Source: t.From, Target: target, Mode: r.Mode,
		Phase: toDef.Name, PhaseDisplay: st.Phases[toNum-1].DisplayName, From: t.From,
		PhaseNumber: toNum, PhaseCount: len(p.Phases), Step: step, StepCount: len(chunk.Stories),
		StepName: st.CurrentPhase.StepName, GeneratedAt: stamp(now), Mission: mission,
		LeftOut: chunk.LeftOut, Accumulated: st.AccumulatedContext, TestResults: testResultsText(st.AccumulatedContext.TestResults),
		Warnings: warnings, References: refs,
	}
	d.RelevantOn, d.Relevant, err = relevant(rc, mission, chunk.Excerpts)
	if err != nil {
		warnings = append(warnings, "Relevant context: none in this brief: "+err.Error())
		d.Warnings = warnings
	}
	out, err := fitBrief(d, chunk.Excerpts, e.Config.Settings.ContextWindow, e.Config.Settings.CompressionThreshold)
	if err != nil {
		return err
	}
	r.Files = append(r.Files, File{Name: name, Data: out})
	r.BriefPath, r.Budget = name, &d.Budget
	r.Warnings = warnings
	r.Relevant = d.Relevant
	if r.Mode != "refresh" {
		to.ContextBriefPath = name
		if step > 0 {
			to.Steps[step-1].ContextBriefPath = name
		}
		st.LastBrief = &BriefInfo{Path: name, Tokens: d.Budget.Tokens, Budget: d.Budget.Limit, Status: d.Budget.Status, Compressed: d.Budget.Compressed}
	}
	return nil
}

// references are the brief's References, labelled as the brief template
// labels them: the spec (the artifact of type spec, else the first
// phase's), the previous phase's artifact, the pipeline state, the
// dashboard, the previous brief, then the other artifacts curated.
func (e *Env) references(st *State, t *TransitionRule, toNum int, curated []Artifact, prevBrief string) []string {
	line := func(label string, a *Artifact) string {
		if a == nil {
			return "**" + label + "**: none recorded"
		}
		shown := a.Path
		if abs, _, err := ProjectFile(st.ProjectPath, a.Path); err == nil {
			shown = e.Shown(abs)
		}
		return fmt.Sprintf("**%s**: `%s` — %s", label, a.Path, shown)
	}
	spec := validatedOf(st, func(_ *Phase, a *Artifact) bool { return a.Type == "spec" })
	if spec == nil && len(st.Phases) > 0 {
		spec = validatedOf(st, func(ph *Phase, _ *Artifact) bool { return ph.PhaseNumber == 1 })
	}
	refs := []string{line("Spec", spec)}
	var previous *Artifact
	if from := st.Phase(t.From); from != nil && from.PhaseNumber != toNum {
		previous = validatedOf(st, func(ph *Phase, _ *Artifact) bool { return ph == from })
		refs = append(refs, line("Previous phase artifact", previous))
	} else {
		refs = append(refs, "**Previous phase artifact**: none (this is the pipeline's first phase)")
	}
	statePath, _ := e.Home.Path(StateName(st.ProjectName))
	refs = append(refs, "**Pipeline state**: "+e.Shown(statePath))
	if e.Config.Settings.Dashboard() {
		dash, _ := e.Home.Path(DashboardName(st.ProjectName))
		refs = append(refs, "**Dashboard**: "+e.Shown(dash))
	}
	if prevBrief != "" {
		p, _ := e.Home.Path(prevBrief)
		refs = append(refs, "**Previous brief**: "+e.Shown(p))
	}
	for i := range curated {
		a := &curated[i]
		if (spec == nil || a.Path != spec.Path) && (previous == nil || a.Path != previous.Path) {
			refs = append(refs, line("Source", a))
		}
	}
	return refs
}

// validatedOf is the first validated artifact, in phase order, that keep
// accepts (nil when none does).
func validatedOf(st *State, keep func(*Phase, *Artifact) bool) *Artifact {
	for i := range st.Phases {
		ph := &st.Phases[i]
		for j := range ph.Artifacts {
			if a := &ph.Artifacts[j]; a.ValidatedAt != "" && keep(ph, a) {
				return a
			}
		}
	}
	return nil
}

// sources are the validated artifacts a transition curates: those of the
// types it names, in that order, or else every validated artifact of the
// phases other than the destination, in phase order.
func sources(st *State, t *TransitionRule, toNum int) []Artifact {
	var all []Artifact
	for _, ph := range st.Phases {
		if ph.PhaseNumber == toNum && t.From != t.To {
			continue
		}
		for _, a := range ph.Artifacts {
			if a.ValidatedAt != "" {
				all = append(all, a)
			}
		}
	}
	if len(t.Sources) == 0 {
		return all
	}
	var out []Artifact
	for _, typ := range t.Sources {
		for _, a := range all {
			if a.Type == typ {
				out = append(out, a)
			}
		}
	}
	return out
}

// setSteps makes a step-wise phase list one step per user story.
func setSteps(ph *Phase, stories []Story) {
	steps := make([]Step, len(stories))
	for i, s := range stories {
		steps[i] = Step{StepNumber: s.Number, StepName: s.Title, Status: StatusPending}
		if i < len(ph.Steps) {
			old := ph.Steps[i]
			old.StepNumber, old.StepName = s.Number, s.Title
			steps[i] = old
		}
	}
	ph.Steps = steps
}

// AbsProjectPath makes a --project-path absolute.
func AbsProjectPath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	return filepath.Abs(p)
}
