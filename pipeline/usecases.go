package pipeline

import (
	"context"
	"errors"
	"strings"

	"github.com/curator-dev/curator/internal/refuse"
)

// The use-cases: one per `curator pipeline` command, which the command
// line, the MCP tools and watch call alike. Each takes the home opened as
// an Env (package pipelinehome opens it), and, when it writes, the Saver
// that records its files; it fills in what the request leaves out (the
// one project of the home, the working directory), checks the request,
// runs its mode and saves the mode's files. A wrong request is a
// refuse.Request error (exit 2), a blocked handoff or failed validation a
// refuse.Blocked one (exit 3); a blocked handoff still returns its report,
// its blocked state recorded.

// ValidateRequest is what `pipeline validate` checks: a phase's artifacts
// ("" the current phase).
type ValidateRequest struct {
	ProjectRequest
	Phase string
}

// PhaseRequest names a phase of a project: the one restart sends back to
// pending, or skip skips (with Reason as its summary).
type PhaseRequest struct {
	Project, Phase, Reason string
}

// needPhase refuses a request that names no phase; what says what the
// phase is for ("skip").
func (r PhaseRequest) needPhase(what string) error {
	if strings.TrimSpace(r.Phase) == "" {
		return refuse.Requestf("phase is missing: give the phase to %s", what)
	}
	return nil
}

// HoldRequest puts a project on hold, with the reason recorded.
type HoldRequest struct {
	Project, Reason string
}

// Transition hands the pipeline over from one phase to the next and
// records the new state, brief and dashboard as one run. When validation
// blocks it, the blocked state is recorded and returned with the error;
// a first transition that finds none of the phase's files records nothing.
func Transition(_ context.Context, e *Env, s Saver, req TransitionRequest) (*ModeReport, error) {
	var err error
	if req.ProjectPath, err = e.projectPath(req.ProjectPath); err != nil {
		return nil, err
	}
	if req.Step < 0 {
		return nil, refuse.Requestf("step %d: steps count from 1", req.Step)
	}
	req.WorkDir = workDir(req.WorkDir)
	return e.run(s, &req.Project, func() (*Report, error) { return e.transition(req) })
}

// Resume picks the pipeline up where it stands, without advancing it: the
// current phase's artifacts are validated, a fresh brief is written for
// the current phase and step, and the state and dashboard are saved, as
// one run. A missing or corrupt state is reconstructed from the artifacts.
func Resume(_ context.Context, e *Env, s Saver, req ProjectRequest) (*ModeReport, error) {
	if err := e.fill(&req); err != nil {
		return nil, err
	}
	return e.run(s, &req.Project, func() (*Report, error) { return e.resume(req) })
}

// Reconstruct infers the state from the artifacts on disk and writes it;
// phases the old state says are completed stay completed.
func Reconstruct(_ context.Context, e *Env, s Saver, req ProjectRequest) (*ModeReport, error) {
	if err := e.fill(&req); err != nil {
		return nil, err
	}
	return e.run(s, &req.Project, func() (*Report, error) { return e.reconstruct(req) })
}

// Validate checks a phase's artifacts; it changes nothing, and failed
// checks are returned with the report as a refuse.Blocked error wrapping
// ErrNotValid.
func Validate(_ context.Context, e *Env, req ValidateRequest) (*ModeReport, error) {
	if err := e.fill(&req.ProjectRequest); err != nil {
		return nil, err
	}
	return e.run(nil, &req.Project, func() (*Report, error) { return e.validate(req.ProjectRequest, req.Phase) })
}

// Status is the pipeline's state and the drift of its artifacts; it
// changes nothing.
func Status(_ context.Context, e *Env, req ProjectRequest) (*ModeReport, error) {
	return e.run(nil, &req.Project, func() (*Report, error) { return e.status(ProjectRequest{Project: req.Project}) })
}

// Refresh writes a new brief for the current phase and step; the state is
// not changed.
func Refresh(_ context.Context, e *Env, s Saver, req ProjectRequest) (*ModeReport, error) {
	return e.run(s, &req.Project, func() (*Report, error) { return e.refresh(ProjectRequest{Project: req.Project}) })
}

// Restart sends a phase and every later one back to pending.
func Restart(_ context.Context, e *Env, s Saver, req PhaseRequest) (*ModeReport, error) {
	if err := req.needPhase("restart at"); err != nil {
		return nil, err
	}
	return e.run(s, &req.Project, func() (*Report, error) { return e.restart(ProjectRequest{Project: req.Project}, req.Phase) })
}

// Hold puts the pipeline on hold.
func Hold(_ context.Context, e *Env, s Saver, req HoldRequest) (*ModeReport, error) {
	return e.run(s, &req.Project, func() (*Report, error) { return e.hold(ProjectRequest{Project: req.Project}, req.Reason) })
}

// Continue takes the pipeline off hold.
func Continue(_ context.Context, e *Env, s Saver, req ProjectRequest) (*ModeReport, error) {
	return e.run(s, &req.Project, func() (*Report, error) { return e.unhold(ProjectRequest{Project: req.Project}) })
}

// Skip marks a phase skipped.
func Skip(_ context.Context, e *Env, s Saver, req PhaseRequest) (*ModeReport, error) {
	if err := req.needPhase("skip"); err != nil {
		return nil, err
	}
	return e.run(s, &req.Project, func() (*Report, error) {
		return e.skip(ProjectRequest{Project: req.Project}, req.Phase, req.Reason)
	})
}

// Dashboard writes the project's dashboard page; the state is not
// changed, and a page as it was makes no commit.
func Dashboard(_ context.Context, e *Env, s Saver, req ProjectRequest) (*DashboardReport, error) {
	project, err := e.ProjectOf(req.Project)
	if err != nil {
		return nil, err
	}
	r, err := e.dashboardReport(ProjectRequest{Project: project})
	if err != nil {
		return nil, Refused(err)
	}
	commit, err := e.save(s, r)
	if err != nil {
		return nil, err
	}
	return &DashboardReport{Commit: commit, Dashboard: e.Home.abs(DashboardName(project))}, nil
}

// DashboardPage renders a project's dashboard from its state as it is now
// (the live dashboard's page); it writes nothing.
func DashboardPage(_ context.Context, e *Env, project string) ([]byte, error) {
	return e.dashboardPage(ProjectRequest{Project: project})
}

// ProjectOf is the project a request names, checked; "" is the one
// project of the home (a refuse.Request error when it holds none, or
// several).
func (e *Env) ProjectOf(project string) (string, error) {
	if project != "" {
		return project, Refused(CheckProject(project))
	}
	names, err := e.Home.Projects()
	if err != nil {
		return "", err
	}
	switch len(names) {
	case 1:
		return names[0], nil
	case 0:
		return "", refuse.Requestf("--project is needed: %s holds no pipeline yet", e.Home.Dir)
	}
	return "", refuse.Requestf("--project is needed: %s holds %d pipelines (%s)", e.Home.Dir, len(names), strings.Join(names, ", "))
}

// run runs one mode for the project of a request (filled in when left
// out), saves its files with s (nil: the mode writes nothing) and reports.
// A mode's error is returned after its files are saved, with the report
// (a blocked handoff records the blocked state).
func (e *Env) run(s Saver, project *string, mode func() (*Report, error)) (*ModeReport, error) {
	var err error
	if *project, err = e.ProjectOf(*project); err != nil {
		return nil, err
	}
	r, runErr := mode()
	if r == nil {
		return nil, Refused(runErr)
	}
	commit, err := e.save(s, r)
	if err != nil {
		return nil, err
	}
	return newModeReport(e.Home, r, commit), Refused(runErr)
}

// fill makes a request's project folder absolute ("~" expanded) and fills
// in the working directory.
func (e *Env) fill(req *ProjectRequest) error {
	var err error
	req.ProjectPath, err = e.projectPath(req.ProjectPath)
	req.WorkDir = workDir(req.WorkDir)
	return err
}

// projectPath is a project folder as given, "~" expanded and made
// absolute ("" stays "").
func (e *Env) projectPath(p string) (string, error) {
	abs, err := AbsPath(p, e.UserHome)
	if err != nil {
		return "", refuse.Requestf("project path: %w", err)
	}
	return abs, nil
}

// workDir is dir, or the working directory when dir is "".
func workDir(dir string) string {
	if dir == "" {
		dir, _ = AbsProjectPath(".")
	}
	return dir
}

// Refused gives the pipeline's errors the kinds of package refuse: an
// unknown pipeline, phase or transition, or an unsafe name, is a wrong
// request; a blocked handoff, artifacts that do not validate and a
// project folder without any of them are blocked. Other errors are returned as they are.
func Refused(err error) error {
	switch {
	case err == nil, refuse.IsRequest(err), refuse.IsBlocked(err):
		return err
	case errors.Is(err, ErrBlocked), errors.Is(err, ErrNotValid), errors.Is(err, ErrNoArtifacts):
		return refuse.Blocked(err)
	case errors.Is(err, ErrUnknown), errors.Is(err, ErrUnsafePath):
		return refuse.Request(err)
	}
	return err
}
