package pipeline

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// preference orders pipeline types when the artifacts fit several equally.
var preference = []string{"sdd", "ui-lifecycle", "full-product", "debug"}

// evidence is what the artifacts on disk say about one phase.
type evidence struct {
	found, valid bool
	checks       []Check
}

func gather(p *Pipeline, projectPath string, now time.Time) ([]evidence, error) {
	ev := make([]evidence, len(p.Phases))
	for i := range p.Phases {
		checks, err := ValidatePhase(projectPath, &p.Phases[i], now)
		if err != nil {
			return nil, err
		}
		ev[i].checks = checks
		ev[i].valid = len(checks) > 0
		for _, c := range checks {
			if c.Path != "" {
				ev[i].found = true
			}
			if c.Blocking() {
				ev[i].valid = false
			}
		}
	}
	return ev, nil
}

// InferPipeline picks the pipeline type whose phases' artifacts are found
// in the project folder (most found wins; ties go to sdd, ui-lifecycle,
// full-product, debug, then by name). ambiguous reports a tie.
func InferPipeline(cfg *Config, projectPath string, now time.Time) (name string, ambiguous bool, err error) {
	names := make([]string, 0, len(cfg.Pipelines))
	for n := range cfg.Pipelines {
		names = append(names, n)
	}
	rank := func(n string) int {
		for i, p := range preference {
			if p == n {
				return i
			}
		}
		return len(preference)
	}
	sort.Slice(names, func(i, j int) bool {
		if rank(names[i]) != rank(names[j]) {
			return rank(names[i]) < rank(names[j])
		}
		return names[i] < names[j]
	})
	best, bestScore, tie := "", -1.0, false
	for _, n := range names {
		ev, err := gather(cfg.Pipelines[n], projectPath, now)
		if err != nil {
			return "", false, err
		}
		found := 0
		for _, x := range ev {
			if x.found {
				found++
			}
		}
		// Share of the pipeline's phases with artifacts, times the count, so a
		// pipeline that explains more files wins, and then the tighter fit.
		score := float64(found) + float64(found)/float64(len(ev)+1)
		if score > bestScore {
			best, bestScore, tie = n, score, false
		} else if score == bestScore {
			tie = true
		}
	}
	return best, tie || bestScore == 0, nil
}

// reconstructState infers the phases of a pipeline from the artifacts in the
// project folder: a phase whose artifacts validate is completed, one with
// invalid artifacts is in progress, one without is pending. A phase that the
// old state says is completed is never downgraded. The confidence (0–1)
// drops for gaps (a completed phase after an unfinished one), for invalid
// artifacts and when there is little to go on. found reports whether any
// of the pipeline's artifacts is in the project folder.
func reconstructState(cfg *Config, p *Pipeline, project, projectPath string, old *State, now time.Time) (st *State, notes []string, found bool, err error) {
	ev, err := gather(p, projectPath, now)
	if err != nil {
		return nil, nil, false, err
	}
	st = newState(p, project, projectPath, cfg.Settings, now)
	if old != nil && old.Pipeline() == p.Name {
		keep := *old
		st.PipelineID, st.StartedAt, st.Extra = keep.PipelineID, keep.StartedAt, keep.Extra
		st.AccumulatedContext = keep.AccumulatedContext
		st.Phases = keep.Phases
		syncPhases(st, p)
	}
	confidence := 1.0
	oldFound := false
	lastDone := -1
	for i := range p.Phases {
		ph := &st.Phases[i]
		oldDone := ph.Status == StatusCompleted && old != nil
		x := ev[i]
		switch {
		case x.valid:
			completedOnDisk(st, ph, x, now)
		case oldDone:
			notes = append(notes, fmt.Sprintf("%s: kept completed from the old state (its artifacts no longer validate)", ph.PhaseName))
			confidence -= 0.1
		case x.found:
			ph.Status, ph.CompletedAt = StatusInProgress, ""
			notes = append(notes, fmt.Sprintf("%s: artifacts found but not valid", ph.PhaseName))
			confidence -= 0.1
		default:
			ph.Status, ph.CompletedAt = StatusPending, ""
		}
		found = found || x.found
		oldFound = oldFound || oldDone
		if ph.Status == StatusCompleted {
			lastDone = i
		}
	}
	// A completed phase after an unfinished one is a gap in the evidence.
	for i := 0; i < lastDone; i++ {
		if st.Phases[i].Status != StatusCompleted {
			notes = append(notes, fmt.Sprintf("%s: not completed, but a later phase is", st.Phases[i].PhaseName))
			confidence -= 0.2
		}
	}
	if !found && !oldFound {
		notes = append(notes, "no artifacts found in "+projectPath)
		confidence = 0.2
	}
	cur := len(st.Phases) - 1
	st.OverallStatus = OverallCompleted
	for i := range st.Phases {
		if st.Phases[i].Status != StatusCompleted {
			cur, st.OverallStatus = i, OverallInProgress
			break
		}
	}
	if st.OverallStatus == OverallInProgress && st.Phases[cur].Status == StatusPending {
		st.Phases[cur].Status = StatusInProgress
	}
	st.CurrentPhase = Position{PhaseNumber: cur + 1, PhaseName: st.Phases[cur].PhaseName}
	if old != nil && old.CurrentPhase.PhaseName == st.CurrentPhase.PhaseName && old.CurrentPhase.StepNumber > 0 {
		st.CurrentPhase.StepNumber, st.CurrentPhase.StepName = old.CurrentPhase.StepNumber, old.CurrentPhase.StepName
	}
	st.Reconstructed = true
	st.ReconstructionConfidence = math.Round(math.Max(0.1, math.Min(1, confidence))*100) / 100
	return st, notes, found, nil
}

// completedOnDisk records a phase whose artifacts validate as completed,
// with its artifacts, their accumulated context and its summary.
func completedOnDisk(st *State, ph *Phase, x evidence, now time.Time) {
	ph.Status, ph.Blockers, ph.Artifacts = StatusCompleted, nil, nil
	summarised := false
	for _, c := range x.checks {
		if c.Path != "" {
			ph.Artifacts = append(ph.Artifacts, c.Record)
			accumulate(&st.AccumulatedContext, c.Path, ph.PhaseName, stamp(now), c.outline)
			if c.OK && c.outline != nil && !summarised {
				ph.Summary, summarised = phaseSummary(c.outline), true
			}
		}
	}
	if ph.CompletedAt == "" {
		ph.CompletedAt = stamp(now)
	}
}

// earlierOnDisk fills in the phases before phase num of a new state, one
// that begins in the middle of its pipeline, from the artifacts in the
// project folder: a phase whose artifacts validate is completed, the
// others stay pending. It returns what it decided and what it warns of.
func earlierOnDisk(st *State, p *Pipeline, num int, now time.Time) (decisions, warnings []string, err error) {
	if num <= 1 {
		return nil, nil, nil
	}
	ev, err := gather(p, st.ProjectPath, now)
	if err != nil {
		return nil, nil, err
	}
	var done []string
	for i := 0; i < num-1; i++ {
		ph := &st.Phases[i]
		switch x := ev[i]; {
		case x.valid:
			completedOnDisk(st, ph, x, now)
			done = append(done, ph.PhaseName)
		case x.found:
			warnings = append(warnings, fmt.Sprintf("%s: its artifacts were found but do not validate; it stays pending", ph.PhaseName))
		default:
			warnings = append(warnings, fmt.Sprintf("%s: none of its artifacts were found; it stays pending", ph.PhaseName))
		}
	}
	if len(done) > 0 {
		decisions = append(decisions, "reconstructed from the artifacts on disk: "+strings.Join(done, ", ")+" completed")
	}
	st.Reconstructed = true
	st.ReconstructionConfidence = math.Round(float64(len(done))/float64(num-1)*100) / 100
	st.ReconstructionConfidence = max(0.1, st.ReconstructionConfidence)
	return decisions, warnings, nil
}
