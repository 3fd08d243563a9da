package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
)

// recordDrift is the mode that watch runs when a project's files change:
// it compares every validated artifact with its file and, when what it
// finds differs from the drift recorded in the state (a new change, a file
// changed again, or a file back to its validated content), records it in
// the state and renders the dashboard. A report without files means
// nothing changed: touching a file without changing its content is no
// drift, and drift already recorded is not recorded again.
func (e *Env) recordDrift(project string) (*Report, error) {
	l, err := e.open(project)
	if err != nil {
		return nil, err
	}
	if l.Aside != nil {
		return nil, fmt.Errorf("%s: state file is corrupt (run `curator pipeline reconstruct`)", StateName(project))
	}
	if l.State == nil {
		return nil, fmt.Errorf("%w for project %s", ErrNoState, project)
	}
	st := l.State
	r := &Report{Mode: "drift", Project: project, State: st, Drift: st.Drift}
	if !e.Config.Settings.Drift() {
		return r, nil
	}
	found := DetectDrift(st)
	if sameDrift(st.Drift, found) {
		return r, nil
	}
	now := map[string]bool{}
	for _, d := range found {
		now[d.Phase+"\x00"+d.Path] = true
	}
	for _, d := range st.Drift {
		if !now[d.Phase+"\x00"+d.Path] {
			r.Cleared = append(r.Cleared, d)
			r.Decisions = append(r.Decisions, fmt.Sprintf("drift cleared: %s (phase %s) is back to its validated content", d.Path, d.Phase))
		}
	}
	recorded := map[string]bool{}
	for _, d := range st.Drift {
		recorded[d.key()] = true
	}
	for _, d := range found {
		if recorded[d.key()] {
			continue
		}
		if d.Change == "deleted" {
			r.Decisions = append(r.Decisions, fmt.Sprintf("drift: %s (phase %s) deleted, validated sha256 %.12s", d.Path, d.Phase, d.ValidatedSHA256))
		} else {
			r.Decisions = append(r.Decisions, fmt.Sprintf("drift: %s (phase %s) modified at %s, sha256 %.12s → %.12s", d.Path, d.Phase, d.ModifiedAt, d.ValidatedSHA256, d.SHA256))
		}
	}
	r.Drift = found
	r.Warnings = driftWarnings(found)
	r.summary = fmt.Sprintf("pipeline %s: drift", project)
	if len(found) == 0 {
		r.summary = fmt.Sprintf("pipeline %s: drift cleared", project)
	}
	return r, e.finish(r, st, l.Raw)
}

// Projects lists the projects that have a state file in the home, sorted.
func (h Home) Projects() ([]string, error) {
	entries, err := os.ReadDir(h.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, "pipeline-state-") || !strings.HasSuffix(name, ".json") {
			continue
		}
		p := strings.TrimSuffix(strings.TrimPrefix(name, "pipeline-state-"), ".json")
		if CheckProject(p) == nil {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Followed is what watch mode follows of a project: its folder and the
// absolute paths of its validated artifacts.
type Followed struct {
	Project, ProjectPath string
	Artifacts            []string
}

// follow reads a project's state for watch mode.
func (e *Env) follow(project string) (*Followed, error) {
	l, err := e.open(project)
	if err != nil {
		return nil, err
	}
	if l.State == nil {
		return nil, fmt.Errorf("%w for project %s", ErrNoState, project)
	}
	if l.Aside != nil {
		return nil, fmt.Errorf("%s: state file is corrupt (run `curator pipeline reconstruct`)", StateName(project))
	}
	f := &Followed{Project: project, ProjectPath: l.State.ProjectPath}
	for _, ph := range l.State.Phases {
		for _, a := range ph.Artifacts {
			if a.ValidatedAt == "" || a.SHA256 == "" {
				continue
			}
			if abs, _, err := ProjectFile(l.State.ProjectPath, a.Path); err == nil {
				f.Artifacts = append(f.Artifacts, abs)
			}
		}
	}
	return f, nil
}

// DriftReport is what a drift run of watch did: the reports of the
// projects whose drift changed, the commit that recorded them ("" none),
// and the projects that failed, each as an error naming it.
type DriftReport struct {
	Changed  []*Report
	Commit   string
	Problems []error
}

// FollowProjects reads, for watch, every project with a state in the home
// (or only the one named); a project whose state cannot be read is
// returned in problems and left out.
func FollowProjects(_ context.Context, e *Env, only string) (followed []*Followed, problems []error, err error) {
	names, err := e.Home.Projects()
	if err != nil {
		return nil, nil, err
	}
	for _, name := range names {
		if only != "" && name != only {
			continue
		}
		f, err := e.follow(name)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		followed = append(followed, f)
	}
	return followed, problems, nil
}

// RecordDrift runs the drift mode for each project and saves what changed
// as one run with s, as every pipeline use-case saves its files: one
// commit for the whole batch when the home is in the store, atomic writes
// when it is not, nothing when no drift changed. A project that fails is
// returned in the report's problems; the others are saved. The report is
// returned with a failed save's error too, its problems named.
func RecordDrift(_ context.Context, e *Env, s Saver, projects []string) (*DriftReport, error) {
	out := &DriftReport{}
	var files []File
	for _, p := range projects {
		r, err := e.recordDrift(p)
		if err != nil {
			out.Problems = append(out.Problems, err)
			continue
		}
		fs, err := e.writes(r)
		if err != nil {
			out.Problems = append(out.Problems, err)
			continue
		}
		if len(fs) == 0 {
			continue
		}
		files = append(files, fs...)
		out.Changed = append(out.Changed, r)
	}
	if len(files) == 0 {
		return &DriftReport{Problems: out.Problems}, nil
	}
	// One run for the batch: one project's report as it is, several under
	// one summary naming them all, with every project's decisions.
	summary := out.Changed[0]
	if len(out.Changed) > 1 {
		summary = &Report{Mode: "drift"}
		names := make([]string, len(out.Changed))
		for i, r := range out.Changed {
			names[i] = r.Project
			summary.Decisions = append(summary.Decisions, r.Decisions...)
		}
		summary.Project = strings.Join(names, ", ")
	}
	if s == nil {
		return out, fmt.Errorf("pipeline %s: drift writes no files", summary.Project)
	}
	var err error
	out.Commit, err = s.Save(files, summary.Summary(), summary.Decisions)
	return out, err
}
