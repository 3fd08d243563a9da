package pipelinecmd

import (
	"path/filepath"
	"strings"

	"github.com/curator-dev/curator/pipeline"
)

// Watched is the pipeline side of `curator watch`: the home it reads, the
// projects it follows, and the drift runs it saves.
type Watched struct {
	opts HomeOptions
	// Dir is the home folder (absolute); Inside is true when it is part of
	// the store, so that drift runs are commits.
	Dir    string
	Inside bool
}

// Watch opens the pipeline home of opts for watch mode. Project, when set,
// limits it to one project.
func Watch(opts HomeOptions) (*Watched, error) {
	h, err := opts.open(false)
	if err != nil {
		return nil, pipelineErr(err)
	}
	defer h.close()
	return &Watched{opts: opts, Dir: h.env.Home.Dir, Inside: h.inside}, nil
}

// Projects follows every project with a state in the home (or the one
// project asked for); a project whose state cannot be read is returned in
// problems and left out.
func (w *Watched) Projects() (followed []*pipeline.Followed, problems []error, err error) {
	h, err := w.opts.open(false)
	if err != nil {
		return nil, nil, pipelineErr(err)
	}
	defer h.close()
	names, err := h.env.Home.Projects()
	if err != nil {
		return nil, nil, err
	}
	for _, name := range names {
		if w.opts.Project != "" && name != w.opts.Project {
			continue
		}
		f, err := h.env.Follow(name)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		followed = append(followed, f)
	}
	return followed, problems, nil
}

// IsState reports whether path (absolute) is a project's state file in the
// home, and names the project.
func (w *Watched) IsState(path string) (string, bool) {
	if filepath.Dir(path) != w.Dir {
		return "", false
	}
	base := filepath.Base(path)
	if !strings.HasPrefix(base, "pipeline-state-") || !strings.HasSuffix(base, ".json") {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimPrefix(base, "pipeline-state-"), ".json"), true
}

// Page renders a project's dashboard as it is now.
func (w *Watched) Page(project string) ([]byte, error) {
	h, err := w.opts.open(false)
	if err != nil {
		return nil, err
	}
	defer h.close()
	return h.env.DashboardPage(pipeline.ProjectRequest{Project: project})
}

// RecordDrift runs the drift mode for each project and saves what changed
// as one run, as every pipeline command saves its files (saveFiles): one
// commit for the whole batch when the home is in the store (the state
// backups written beside it, never committed), atomic writes when it is
// not, nothing when no drift changed. It
// returns the reports of the projects whose drift changed, and the commit.
// A project that fails is returned in problems; the others are saved.
func (w *Watched) RecordDrift(projects []string) (changed []*pipeline.Report, commit string, problems []error, err error) {
	h, err := w.opts.open(true)
	if err != nil {
		return nil, "", nil, err
	}
	defer h.close()
	var files []pipeline.File
	var runs []*pipeline.Report
	for _, p := range projects {
		r, err := h.env.RecordDrift(p)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		fs, err := h.env.Writes(r)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if len(fs) == 0 {
			continue
		}
		files = append(files, fs...)
		runs = append(runs, r)
	}
	if len(files) == 0 {
		return nil, "", problems, nil
	}
	// One run for the batch: one project's report as it is, several under
	// one summary naming them all, with every project's decisions.
	summary := runs[0]
	if len(runs) > 1 {
		summary = &pipeline.Report{Mode: "drift"}
		names := make([]string, len(runs))
		for i, r := range runs {
			names[i] = r.Project
			summary.Decisions = append(summary.Decisions, r.Decisions...)
		}
		summary.Project = strings.Join(names, ", ")
	}
	commit, err = h.saveFiles(w.opts.Env, summary, files)
	return runs, commit, problems, err
}

// Names lists the projects followed: every project with a state in the
// home, or the one project asked for.
func (w *Watched) Names() ([]string, error) {
	names, err := pipeline.Home{Dir: w.Dir}.Projects()
	if err != nil || w.opts.Project == "" {
		return names, err
	}
	for _, n := range names {
		if n == w.opts.Project {
			return []string{n}, nil
		}
	}
	return nil, nil
}
