package pipeline

import (
	"errors"
	"fmt"
	"github.com/curator-dev/curator/internal/secrets"
	"os"
	"time"

	"github.com/google/uuid"
)

// ErrBlocked means validation blocked a handoff; the report lists why.
var ErrBlocked = errors.New("validation blocked the transition")

// ErrNoState means the project has no state file (yet).
var ErrNoState = errors.New("no pipeline state")

// Env is what every mode works with.
type Env struct {
	Home   Home
	Config *Config
	Now    func() time.Time
	// Dashboard renders the dashboard of a state; nil writes none.
	Dashboard func(*State, *Report) ([]byte, error)
	// Secrets finds what is redacted from artifact text before it is
	// copied (nil: the built-in rules).
	Secrets *secrets.Policy
	// UserHome is the user's home folder: a project_path under it is stored
	// as "~/…" and read back expanded ("": stored as it is).
	UserHome string
}

// Report is what a mode did and found. Files are still to be written, in
// order, by the caller.
type Report struct {
	Mode    string `json:"mode"`
	Project string `json:"project"`
	State   *State `json:"state,omitempty"`
	// Files are home-relative names with their new content.
	Files []File `json:"-"`
	// BriefPath is the home-relative name of the brief written (or current).
	BriefPath string  `json:"brief_path,omitempty"`
	Budget    *Budget `json:"budget,omitempty"`
	Checks    []Check `json:"checks,omitempty"`
	Drift     []Drift `json:"drift,omitempty"`
	// Cleared is the recorded drift that is gone (the file is back to its
	// validated content, or validated again); set by the drift mode.
	Cleared  []Drift  `json:"cleared,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	Stories  []Story  `json:"stories,omitempty"`
	// Decisions are one line each, for the commit message.
	Decisions []string `json:"decisions,omitempty"`
	// summary replaces the default first line of the commit message.
	summary string
}

func (e *Env) now() time.Time {
	if e.Now == nil {
		return time.Now().UTC()
	}
	return e.Now().UTC()
}

// newState starts the state of a project at its first transition.
func newState(p *Pipeline, project, projectPath string, cfg Settings, now time.Time) *State {
	st := &State{
		PipelineID: uuid.New().String(), PipelineType: p.Name, ProjectName: project, ProjectPath: projectPath,
		StartedAt: stamp(now), UpdatedAt: stamp(now), OverallStatus: OverallInProgress,
	}
	syncPhases(st, p)
	setConfig(st, cfg)
	return st
}

// syncPhases makes the state list the pipeline's phases in order, keeping
// the records of phases it knows.
func syncPhases(st *State, p *Pipeline) {
	var phases []Phase
	for i, def := range p.Phases {
		ph := Phase{PhaseName: def.Name, Status: StatusPending}
		if old := st.Phase(def.Name); old != nil {
			ph = *old
		}
		ph.PhaseNumber, ph.DisplayName = i+1, def.DisplayName
		if ph.DisplayName == "" {
			ph.DisplayName = def.Name
		}
		phases = append(phases, ph)
	}
	st.Phases = phases
}

func setConfig(st *State, cfg Settings) {
	st.Config.ContextWindow = cfg.ContextWindow
	st.Config.CompressionThreshold = cfg.CompressionThreshold
	st.Config.EnableDriftDetection = cfg.Drift()
	st.Config.EnableDashboard = cfg.Dashboard()
}

// finish stamps the state, renders it (with backups) and the dashboard into
// the report's files.
func (e *Env) finish(r *Report, st *State, old []byte) error {
	st.UpdatedAt = stamp(e.now())
	setConfig(st, e.Config.Settings)
	previous := st.Drift
	st.Drift = nil
	if e.Config.Settings.Drift() {
		if r.Drift == nil {
			r.Drift = DetectDrift(st)
		}
		st.Drift = recordDrift(previous, r.Drift, st.UpdatedAt)
		r.Drift = st.Drift
	}
	r.State = st
	files, err := stateFiles(e.Home, r.Project, st, old, e.Config.Settings.Backups(), e.UserHome)
	if err != nil {
		return err
	}
	r.Files = append(r.Files, files...)
	return e.dashboard(r, st)
}

func (e *Env) dashboard(r *Report, st *State) error {
	if e.Dashboard == nil || !e.Config.Settings.Dashboard() {
		return nil
	}
	if e.Config.Settings.Drift() && r.Drift == nil {
		r.Drift = DetectDrift(st)
	}
	html, err := e.Dashboard(st, r)
	if err != nil {
		return fmt.Errorf("rendering the dashboard: %w", err)
	}
	r.Files = append(r.Files, File{Name: DashboardName(r.Project), Data: html})
	return nil
}

// driftWarnings describes drift in one line per file.
func driftWarnings(d []Drift) []string {
	var out []string
	for _, x := range d {
		if x.Change == "deleted" {
			out = append(out, fmt.Sprintf("Drift: %s (phase %s) was deleted after it was validated at %s.", x.Path, x.Phase, x.ValidatedAt))
		} else {
			out = append(out, fmt.Sprintf("Drift: %s (phase %s) changed at %s, after it was validated at %s.", x.Path, x.Phase, x.ModifiedAt, x.ValidatedAt))
		}
	}
	return out
}

// open loads a project's state for the modes that need one.
func (e *Env) open(project string) (*loaded, error) {
	if err := CheckProject(project); err != nil {
		return nil, err
	}
	l, err := loadState(e.Home, project, e.Config.Settings.Backups(), e.now())
	if err != nil {
		return nil, err
	}
	for _, st := range []*State{l.State, l.Previous} {
		if st != nil {
			if st.ProjectPath, err = ExpandHome(st.ProjectPath, e.UserHome); err != nil {
				return nil, fmt.Errorf("%s: project_path %w", StateName(project), err)
			}
		}
	}
	return l, nil
}

func statOK(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
