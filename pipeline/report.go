package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/curator-dev/curator/internal/secrets"
)

// ErrBlocked means validation blocked a handoff; the report lists why.
var ErrBlocked = errors.New("validation blocked the transition")

// ErrNotValid means the artifacts checked by validate do not pass; validate
// records nothing (a transition records its blockers).
var ErrNotValid = errors.New("the artifacts do not validate")

// ErrNoState means the project has no state file (yet).
var ErrNoState = errors.New("no pipeline state")

// ErrNoArtifacts means none of a pipeline's artifacts is in the project
// folder: curator most likely ran in the wrong folder, and records nothing.
var ErrNoArtifacts = errors.New("no artifacts")

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
	// Root is the folder of the repository the pipeline files are committed
	// to ("" when they are not): a path inside it is written into them
	// relative to it, so no file holds a path of one machine.
	Root string
}

// Shown is how a path is written into the brief and the dashboard: when
// they are committed (Root is set), as in the state (Stored); else as it is.
func (e *Env) Shown(p string) string {
	if e.Root == "" {
		return p
	}
	return e.Stored(p)
}

// Stored is how a path is written into the state: relative to Root, with
// slashes, when it lies inside it; "~/…" under the user's home folder;
// else as it is.
func (e *Env) Stored(p string) string {
	if e.Root != "" && p != "" && filepath.IsAbs(p) {
		rel, err := filepath.Rel(filepath.Clean(e.Root), filepath.Clean(p))
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return PortablePath(p, e.UserHome)
}

// storedPath reads a path as Stored wrote it back to an absolute one.
func (e *Env) storedPath(p string) (string, error) {
	p, err := ExpandHome(p, e.UserHome)
	if err != nil || p == "" || filepath.IsAbs(p) || e.Root == "" {
		return p, err
	}
	return filepath.Join(e.Root, filepath.FromSlash(p)), nil
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
	// Relevant is the relevant context the brief includes.
	Relevant []RelevantItem `json:"relevant,omitempty"`
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
		PipelineID: uuid.New().String(), ProjectName: project, ProjectPath: projectPath,
		StartedAt: stamp(now), UpdatedAt: stamp(now), OverallStatus: OverallInProgress,
	}
	st.setPipeline(p.Name)
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
	st.setPipeline(st.Pipeline())
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
	files, err := stateFiles(e.Home, r.Project, st, old, e.Config.Settings.Backups(), e.Stored)
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
	html, err := e.renderDashboard(st, r)
	if err != nil {
		return fmt.Errorf("rendering the dashboard: %w", err)
	}
	r.Files = append(r.Files, File{Name: DashboardName(r.Project), Data: html})
	return nil
}

// renderDashboard renders the dashboard of st with its project folder as
// Shown.
func (e *Env) renderDashboard(st *State, r *Report) ([]byte, error) {
	if st == nil {
		return e.Dashboard(st, r)
	}
	shown := *st
	shown.ProjectPath = e.Shown(st.ProjectPath)
	return e.Dashboard(&shown, r)
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
			if st.ProjectPath, err = e.storedPath(st.ProjectPath); err != nil {
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
