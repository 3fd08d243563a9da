package watchmode

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// pipelines is the pipeline side of a watch: the home it reads, the
// projects it follows, and the drift runs it saves, each through the
// pipeline's use-cases in the home opened again (its files change
// between two batches).
type pipelines struct {
	opts *Options
	// Dir is the home folder (absolute).
	Dir string
}

// openPipelines opens the pipeline home of opts for watch mode; --project,
// when given, limits it to one project.
func openPipelines(opts *Options) (*pipelines, error) {
	h, err := openHome(opts, false)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return &pipelines{opts: opts, Dir: h.Env.Home.Dir}, nil
}

// openHome opens the pipeline home of opts; write begins the store's
// transaction when the home is in the store.
func openHome(opts *Options, write bool) (*pipelinehome.Home, error) {
	return pipelinehome.Open(pipelinehome.Options{Store: opts.Store, Home: opts.Home, UserHome: opts.UserHome,
		Write: write, Tx: opts.Tx, Save: opts.Save})
}

// Projects follows every project with a state in the home (or the one
// project asked for); a project whose state cannot be read is returned in
// problems and left out.
func (p *pipelines) Projects() (followed []*pipeline.Followed, problems []error, err error) {
	h, err := openHome(p.opts, false)
	if err != nil {
		return nil, nil, err
	}
	defer h.Close()
	return pipeline.FollowProjects(context.Background(), h.Env, p.opts.Project)
}

// IsState reports whether path (absolute) is a project's state file in the
// home, and names the project.
func (p *pipelines) IsState(path string) (string, bool) {
	if filepath.Dir(path) != p.Dir {
		return "", false
	}
	base := filepath.Base(path)
	if !strings.HasPrefix(base, "pipeline-state-") || !strings.HasSuffix(base, ".json") {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimPrefix(base, "pipeline-state-"), ".json"), true
}

// Page renders a project's dashboard as it is now.
func (p *pipelines) Page(project string) ([]byte, error) {
	h, err := openHome(p.opts, false)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return pipeline.DashboardPage(context.Background(), h.Env, project)
}

// RecordDrift records the drift of projects as one run (one commit for
// the batch when the home is in the store, nothing when no drift
// changed).
func (p *pipelines) RecordDrift(projects []string) (*pipeline.DriftReport, error) {
	h, err := openHome(p.opts, true)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return pipeline.RecordDrift(context.Background(), h.Env, h.Saver(), projects)
}

// Names lists the projects followed: every project with a state in the
// home, or the one project asked for.
func (p *pipelines) Names() ([]string, error) {
	names, err := pipeline.Home{Dir: p.Dir}.Projects()
	if err != nil || p.opts.Project == "" {
		return names, err
	}
	for _, n := range names {
		if n == p.opts.Project {
			return []string{n}, nil
		}
	}
	return nil, nil
}
