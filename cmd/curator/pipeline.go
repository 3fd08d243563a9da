package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/internal/secrets"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/dashboard"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
)

func pipelineCommand() *cli.Command {
	project := &cli.StringFlag{Name: "project", Usage: "project name (a plain file name)", Required: true}
	home := &cli.StringFlag{Name: "home", Usage: "folder of the pipeline files (default: the store's pipelines/); e.g. ~/.claude/sdd", EnvVars: []string{"CURATOR_SDD_HOME"}}
	projectPath := &cli.StringFlag{Name: "project-path", Usage: "the project folder holding the artifacts (default: the recorded one, else the working directory)"}
	pipelineType := &cli.StringFlag{Name: "pipeline", Usage: "pipeline type (sdd, ui-lifecycle, debug, full-product, or one from pipeline-config.json)"}
	return &cli.Command{
		Name:  "pipeline",
		Usage: "multi-agent pipeline handoffs: validated artifacts, context briefs, state and dashboard",
		Description: "Files live in the store's pipelines/ folder (or --home DIR): pipeline-state-<project>.json,\n" +
			"context-briefs/<project>/<n>-<phase>[-step-<k>].md, dashboard-<project>.html, pipeline-config.json.",
		Subcommands: []*cli.Command{
			{
				Name:  "transition",
				Usage: "validate the phase that ends, write the brief for the next one, update the state",
				Flags: []cli.Flag{project, home, projectPath,
					&cli.StringFlag{Name: "pipeline", Usage: pipelineType.Usage, Required: true},
					&cli.StringFlag{Name: "from", Usage: "the phase that ends", Required: true},
					&cli.StringFlag{Name: "to", Usage: "the phase that begins (or \"done\" after the last phase)", Required: true},
					&cli.IntFlag{Name: "step", Usage: "the user story of a step-wise phase (default 1)"},
				},
				Action: pipelineTransition,
			},
			{Name: "resume", Usage: "where the pipeline stands, without advancing it (reconstructs a missing state)",
				Flags: []cli.Flag{project, home, projectPath, pipelineType}, Action: pipelineMode("resume")},
			{Name: "refresh", Usage: "write a new brief for the current phase and step; the state is not changed",
				Flags: []cli.Flag{project, home}, Action: pipelineMode("refresh")},
			{Name: "restart", Usage: "send a phase and every later one back to pending (artifact files are not touched)",
				Flags:  []cli.Flag{project, home, &cli.StringFlag{Name: "phase", Usage: "the phase to restart at", Required: true}},
				Action: pipelineMode("restart")},
			{Name: "status", Usage: "the pipeline's state, with drift of validated artifacts",
				Flags: []cli.Flag{project, home}, Action: pipelineMode("status")},
			{Name: "validate", Usage: "check a phase's artifacts (default: the current phase); exit 3 when they fail",
				Flags:  []cli.Flag{project, home, projectPath, pipelineType, &cli.StringFlag{Name: "phase", Usage: "the phase to check"}},
				Action: pipelineMode("validate")},
			{Name: "reconstruct", Usage: "infer the state from the artifacts on disk (completed phases stay completed)",
				Flags: []cli.Flag{project, home, projectPath, pipelineType}, Action: pipelineMode("reconstruct")},
			{Name: "dashboard", Usage: "write the HTML dashboard; --open shows it, --serve ADDR serves it live",
				Flags: []cli.Flag{project, home,
					&cli.BoolFlag{Name: "open", Usage: "open the dashboard in a browser"},
					&cli.StringFlag{Name: "serve", Usage: "serve the live dashboard on ADDR (e.g. 127.0.0.1:8080) until interrupted"},
				},
				Action: pipelineDashboard},
		},
	}
}

// pipelineRun is one pipeline command: its store (nil with --home outside
// any store), the home folder and, when the home is inside the store, its
// store-relative prefix (files are then committed).
type pipelineRun struct {
	g      globals
	s      *mdstore.Store
	env    *pipeline.Env
	prefix string
	inside bool
	lock   *mdstore.Lock
}

func openPipeline(c *cli.Context, write bool) (*pipelineRun, error) {
	g := globalsOf(c)
	home := c.String("home")
	s, err := g.openStore()
	if err != nil && (home == "" || !errors.Is(err, mdstore.ErrNoStore)) {
		return nil, err
	}
	pr := &pipelineRun{g: g, s: s}
	settings := pipeline.Settings{}
	now := func() time.Time { return time.Now().UTC() }
	if s != nil {
		if err := s.Config.Section("pipelines", &settings); err != nil {
			return nil, err
		}
		now = s.Now
	}
	if home == "" {
		home, pr.prefix, pr.inside = s.Path("pipelines"), "pipelines", true
	} else {
		if home, err = filepath.Abs(home); err != nil {
			return nil, err
		}
		if s != nil {
			if rel, err := filepath.Rel(s.Dir, home); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				pr.prefix, pr.inside = filepath.ToSlash(rel), true
			}
		}
	}
	if write && s != nil {
		if pr.lock, err = g.lock(s); err != nil {
			return nil, err
		}
	}
	cfg, err := pipeline.LoadConfig(filepath.Join(home, pipeline.ConfigName), settings)
	if err != nil {
		pr.close()
		return nil, err
	}
	pr.env = &pipeline.Env{Home: pipeline.Home{Dir: home}, Config: cfg, Now: now, Dashboard: dashboard.ForPipeline}
	if s != nil {
		pr.env.Secrets = s.Secrets()
	}
	return pr, nil
}

func (pr *pipelineRun) close() {
	if pr.lock != nil {
		pr.lock.Unlock()
	}
}

// save writes a report's files: as one run of the store (journal, one
// commit) when the home is inside the store, else atomically one by one
// with no commit. Files whose content did not change are not rewritten.
func (pr *pipelineRun) save(r *pipeline.Report, summary string) (string, error) {
	pol := secrets.Default()
	if pr.s != nil {
		pol = pr.s.Secrets()
	}
	pipeline.RedactFiles(pol, r)
	var files []pipeline.File
	for _, f := range r.Files {
		abs, err := pr.env.Home.Path(f.Name)
		if err != nil {
			return "", err
		}
		if cur, err := os.ReadFile(abs); f.From == "" && err == nil && bytes.Equal(cur, f.Data) {
			continue
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return "", nil
	}
	if pr.inside {
		cs := &mdstore.Changeset{}
		for _, f := range files {
			if f.From != "" {
				cs.Move(path.Join(pr.prefix, f.From), path.Join(pr.prefix, f.Name), f.Data)
			} else {
				cs.Write(path.Join(pr.prefix, f.Name), f.Data)
			}
		}
		return pr.g.save(pr.s, cs, mdstore.CommitInfo{Summary: summary, Decisions: r.Decisions, RunID: newRunID(pr.env.Now())})
	}
	for _, f := range files {
		abs, _ := pr.env.Home.Path(f.Name)
		if err := mdstore.WriteFileAtomic(abs, f.Data, 0o644); err != nil {
			return "", err
		}
		if f.From != "" {
			from, err := pr.env.Home.Path(f.From)
			if err != nil {
				return "", err
			}
			if err := os.Remove(from); err != nil && !errors.Is(err, os.ErrNotExist) {
				return "", err
			}
		}
	}
	return "", nil
}

// pipelineErr maps domain errors to exit statuses.
func pipelineErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pipeline.ErrBlocked):
		return cmdutil.Blocked(err)
	case errors.Is(err, pipeline.ErrUnknown), errors.Is(err, pipeline.ErrUnsafePath):
		return cmdutil.Usagef("%v", err)
	}
	return err
}

func projectPathFlag(c *cli.Context, dflt bool) (string, error) {
	p := c.String("project-path")
	if p == "" && dflt {
		p = "."
	}
	return pipeline.AbsProjectPath(p)
}

func pipelineTransition(c *cli.Context) error {
	pr, err := openPipeline(c, true)
	if err != nil {
		return pipelineErr(err)
	}
	defer pr.close()
	req := pipeline.TransitionRequest{Project: c.String("project"), Pipeline: c.String("pipeline"),
		From: c.String("from"), To: c.String("to"), Step: c.Int("step")}
	if req.ProjectPath, err = projectPathFlag(c, false); err != nil {
		return err
	}
	if req.ProjectPath == "" {
		if _, statErr := os.Stat(pr.env.Home.Dir + "/" + pipeline.StateName(req.Project)); statErr != nil {
			req.ProjectPath, _ = pipeline.AbsProjectPath(".")
		}
	}
	r, runErr := pr.env.Transition(req)
	if r == nil {
		return pipelineErr(runErr)
	}
	summary := fmt.Sprintf("pipeline %s: %s → %s", req.Project, req.From, req.To)
	if runErr != nil {
		summary += " blocked"
	}
	commit, err := pr.save(r, summary)
	if err != nil {
		return err
	}
	if err := pr.report(r, commit); err != nil {
		return err
	}
	return pipelineErr(runErr)
}

func pipelineMode(mode string) cli.ActionFunc {
	return func(c *cli.Context) error {
		write := mode != "status" && mode != "validate"
		pr, err := openPipeline(c, write)
		if err != nil {
			return pipelineErr(err)
		}
		defer pr.close()
		req := pipeline.ProjectRequest{Project: c.String("project"), Pipeline: c.String("pipeline")}
		if c.IsSet("project-path") || mode == "resume" || mode == "reconstruct" {
			if req.ProjectPath, err = projectPathFlag(c, false); err != nil {
				return err
			}
		}
		var r *pipeline.Report
		var runErr error
		switch mode {
		case "status":
			r, runErr = pr.env.Status(req)
		case "resume":
			r, runErr = pr.withCwd(req, pr.env.Resume)
		case "reconstruct":
			r, runErr = pr.withCwd(req, pr.env.Reconstruct)
		case "refresh":
			r, runErr = pr.env.Refresh(req)
		case "restart":
			r, runErr = pr.env.Restart(req, c.String("phase"))
		case "validate":
			if req.ProjectPath == "" {
				if _, err := os.Stat(filepath.Join(pr.env.Home.Dir, pipeline.StateName(req.Project))); err != nil {
					req.ProjectPath, _ = pipeline.AbsProjectPath(".")
				}
			}
			r, runErr = pr.env.Validate(req, c.String("phase"))
		}
		if r == nil {
			return pipelineErr(runErr)
		}
		commit := ""
		if len(r.Files) > 0 {
			if commit, err = pr.save(r, fmt.Sprintf("pipeline %s: %s", req.Project, mode)); err != nil {
				return err
			}
		}
		if err := pr.report(r, commit); err != nil {
			return err
		}
		return pipelineErr(runErr)
	}
}

// withCwd runs a mode that may reconstruct; when no folder is recorded or
// given, the working directory is the project folder.
func (pr *pipelineRun) withCwd(req pipeline.ProjectRequest, mode func(pipeline.ProjectRequest) (*pipeline.Report, error)) (*pipeline.Report, error) {
	r, err := mode(req)
	if err != nil && req.ProjectPath == "" && strings.Contains(err.Error(), "--project-path") {
		req.ProjectPath, _ = pipeline.AbsProjectPath(".")
		return mode(req)
	}
	return r, err
}

func pipelineDashboard(c *cli.Context) error {
	pr, err := openPipeline(c, c.String("serve") == "")
	if err != nil {
		return pipelineErr(err)
	}
	defer pr.close()
	req := pipeline.ProjectRequest{Project: c.String("project")}
	render := func() ([]byte, error) {
		r, err := pr.env.Status(req)
		if err != nil {
			return nil, err
		}
		return dashboard.ForPipeline(r.State, r)
	}
	if addr := c.String("serve"); addr != "" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return err
		}
		srv := &http.Server{Handler: dashboard.Handler(render), ReadHeaderTimeout: 5 * time.Second}
		fmt.Fprintf(pr.g.stderr, "Serving the %s dashboard on http://%s/ (Ctrl-C stops)\n", req.Project, ln.Addr())
		ctx, stop := context.WithCancel(c.Context)
		defer stop()
		go func() { <-ctx.Done(); srv.Close() }()
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
	page, err := render()
	if err != nil {
		return pipelineErr(err)
	}
	name := pipeline.DashboardName(req.Project)
	r := &pipeline.Report{Mode: "dashboard", Project: req.Project, Files: []pipeline.File{{Name: name, Data: page}}}
	commit, err := pr.save(r, "pipeline "+req.Project+": dashboard")
	if err != nil {
		return err
	}
	abs, _ := pr.env.Home.Path(name)
	if c.Bool("open") {
		opener := "xdg-open"
		if runtime.GOOS == "darwin" {
			opener = "open"
		}
		if err := exec.Command(opener, abs).Start(); err != nil {
			fmt.Fprintf(pr.g.stderr, "curator: could not open a browser (%v); the dashboard is %s\n", err, abs)
		}
	}
	if pr.g.JSON {
		return pr.g.printJSON(map[string]any{"dashboard": abs, "commit": commit})
	}
	pr.g.say("%s\n", abs)
	return nil
}

// report prints what a mode did: one JSON document with --json, else lines
// for a person.
func (pr *pipelineRun) report(r *pipeline.Report, commit string) error {
	g := pr.g
	abs := func(name string) string {
		if name == "" {
			return ""
		}
		p, _ := pr.env.Home.Path(name)
		return p
	}
	if g.JSON {
		out := map[string]any{"mode": r.Mode, "project": r.Project, "home": pr.env.Home.Dir, "commit": commit,
			"warnings": pipelineList(r.Warnings), "drift": r.Drift, "checks": r.Checks}
		if r.State != nil {
			out["state"] = r.State
			out["state_file"] = abs(pipeline.StateName(r.Project))
		}
		if r.BriefPath != "" {
			out["brief"] = abs(r.BriefPath)
		}
		if r.Budget != nil {
			out["budget"] = r.Budget
		}
		if len(r.Stories) > 0 {
			out["stories"] = r.Stories
		}
		var written []string
		for _, f := range r.Files {
			written = append(written, abs(f.Name))
		}
		out["files"] = pipelineList(written)
		return g.printJSON(out)
	}
	if st := r.State; st != nil && r.Mode != "validate" {
		g.say("%s · %s pipeline · %s\n", st.ProjectName, st.PipelineType, st.OverallStatus)
		cur := fmt.Sprintf("%d. %s", st.CurrentPhase.PhaseNumber, st.CurrentPhase.PhaseName)
		if st.CurrentPhase.StepNumber > 0 {
			cur += fmt.Sprintf(" — step %d: %s", st.CurrentPhase.StepNumber, st.CurrentPhase.StepName)
		}
		g.say("Current: %s\n", cur)
		if st.Reconstructed {
			g.say("Reconstructed from the artifacts (confidence %.2f)\n", st.ReconstructionConfidence)
		}
		for _, ph := range st.Phases {
			extra := ""
			if n := len(ph.Steps); n > 0 {
				done := 0
				for _, s := range ph.Steps {
					if s.Status == pipeline.StatusCompleted {
						done++
					}
				}
				extra = fmt.Sprintf("  steps %d/%d", done, n)
			}
			if n := len(ph.Artifacts); n > 0 {
				extra += fmt.Sprintf("  %d artifact(s)", n)
			}
			g.say("  %d. %-16s %-12s%s\n", ph.PhaseNumber, ph.PhaseName, ph.Status, extra)
		}
	}
	for _, c := range r.Checks {
		mark := "✅"
		if !c.OK {
			mark = "❌"
		}
		name := c.Path
		if name == "" {
			name = c.Type
		}
		g.say("%s %s", mark, name)
		if len(c.Problems) > 0 {
			g.say(": %s", strings.Join(c.Problems, "; "))
		}
		g.say("\n")
	}
	if r.BriefPath != "" {
		g.say("Brief: %s\n", abs(r.BriefPath))
	}
	if b := r.Budget; b != nil {
		g.say("Budget: %s %s — about %d of %d tokens", b.Status, b.Label, b.Tokens, b.Limit)
		if len(b.Compressed) > 0 {
			g.say(" (compressed from %d: %s)", b.RawTokens, strings.Join(b.Compressed, ", "))
		}
		g.say("\n")
	}
	if r.Mode != "validate" {
		for _, w := range r.Warnings {
			g.say("⚠️  %s\n", w)
		}
	}
	for _, f := range r.Files {
		if strings.HasPrefix(f.Name, "dashboard-") {
			g.say("Dashboard: %s\n", abs(f.Name))
		}
	}
	if commit != "" {
		g.say("Commit: %.12s\n", commit)
	}
	return nil
}

func pipelineList(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
