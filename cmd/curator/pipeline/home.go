package pipelinecmd

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/dashboard"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
)

// home is where one command's pipeline files live, and the pipeline
// environment that reads them.
type home struct {
	env *pipeline.Env
	// inside is true when the home folder is in the store (by default it is
	// the store's pipelines/ folder); prefix is then its store-relative
	// folder.
	inside bool
	prefix string
	// tx holds the store while a command that writes runs in a home inside
	// the store; nil otherwise.
	tx *mdstore.Tx
}

// open finds the home folder and loads its pipeline config. A command that
// writes into a home inside the store begins the store's transaction first,
// so the state it reads is the one it replaces.
func (o *HomeOptions) open(write bool) (*home, error) {
	s, err := o.OpenStore()
	if err != nil && (o.Home == "" || !errors.Is(err, mdstore.ErrNoStore)) {
		return nil, err
	}
	h := &home{}
	settings := pipeline.Settings{}
	now := func() time.Time { return time.Now().UTC() }
	if s != nil {
		if err := s.Config.Section("pipelines", &settings); err != nil {
			return nil, err
		}
		now = s.Now
	}
	dir := o.Home
	if dir == "" {
		dir, h.prefix, h.inside = s.Path("pipelines"), "pipelines", true
	} else {
		if dir, err = AbsPath(dir); err != nil {
			return nil, fmt.Errorf("--home: %w", err)
		}
		if s != nil {
			if rel, err := filepath.Rel(s.Dir, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				h.prefix, h.inside = filepath.ToSlash(rel), true
			}
		}
	}
	if write && h.inside {
		if h.tx, err = o.Begin(s); err != nil {
			return nil, err
		}
	}
	cfg, err := pipeline.LoadConfig(filepath.Join(dir, pipeline.ConfigName), settings)
	if err != nil {
		h.close()
		return nil, err
	}
	h.env = &pipeline.Env{Home: pipeline.Home{Dir: dir}, Config: cfg, Now: now, Dashboard: dashboard.ForPipeline, UserHome: userHome()}
	if s != nil {
		h.env.Secrets = s.Secrets()
	}
	if h.inside {
		// the files are committed: paths in them are relative to the repository
		if root, _, err := s.RepoPlace(); err == nil {
			h.env.Root = root
		}
	}
	return h, nil
}

// close ends the store's transaction, if the command began one.
func (h *home) close() {
	if h.tx != nil {
		h.tx.Close()
	}
}

// save writes the files a mode returned and returns the commit, if any.
func (h *home) save(o cmdutil.Env, r *pipeline.Report) (string, error) {
	files, err := h.env.Writes(r)
	if err != nil || len(files) == 0 {
		return "", err
	}
	return h.saveFiles(o, r, files)
}

// saveFiles writes files (those still to be written of r, or of several
// reports summed up by r) and returns the commit, if any.
//
// Where they go is one rule: a home inside the store is part of it, so the
// files are one run of the store's transaction (journal, one commit, as
// every curator run), but for the state backups, which are never
// committed (history is their backup): they are git-ignored and written
// beside the store run, after it. A home outside every store (--home DIR
// or CURATOR_SDD_HOME naming a folder elsewhere) has nothing to commit:
// the files are written there by writeHome, each atomically, in their
// order (the backups before the state they back up), with no commit.
func (h *home) saveFiles(o cmdutil.Env, r *pipeline.Report, files []pipeline.File) (string, error) {
	if !h.inside {
		return "", writeHome(h.env.Home, files)
	}
	if h.tx == nil {
		return "", fmt.Errorf("pipeline %s: %s writes no files", r.Project, r.Mode)
	}
	var backups, committed []pipeline.File
	for _, f := range files {
		if pipeline.IsBackup(f.Name) {
			backups = append(backups, f)
		} else {
			committed = append(committed, f)
		}
	}
	run := storeRun(r, committed, h.prefix, h.tx.Store.Now())
	if len(committed) > 0 {
		if ign, ok := ignoreBackups(h.env.Home); !ok {
			run.Changes.Write(path.Join(h.prefix, ".gitignore"), ign)
		}
	}
	commit, err := o.Save(h.tx, run)
	if err != nil {
		return "", err
	}
	return commit, writeHome(h.env.Home, backups)
}

// ignoreBackups is the home's .gitignore with the rule that ignores the
// state backups, and whether it already held it.
func ignoreBackups(h pipeline.Home) ([]byte, bool) {
	p, err := h.Path(".gitignore")
	if err != nil {
		return nil, true
	}
	data, _ := os.ReadFile(p)
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == pipeline.BackupIgnore {
			return data, true
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	return append(data, pipeline.BackupIgnore+"\n"...), false
}

// storeRun is the store run that records a report's files, in the home's
// store-relative folder prefix.
func storeRun(r *pipeline.Report, files []pipeline.File, prefix string, at time.Time) *mdstore.Run {
	run := mdstore.NewRun(r.Summary(), at)
	for _, f := range files {
		if f.From != "" {
			run.Changes.Move(path.Join(prefix, f.From), path.Join(prefix, f.Name), f.Data)
		} else {
			run.Changes.Write(path.Join(prefix, f.Name), f.Data)
		}
	}
	run.Decide(r.Decisions...)
	return run
}

// writeHome writes files into a home folder outside any store, in order,
// each atomically; a moved file's old name is removed after its new one is
// written.
func writeHome(h pipeline.Home, files []pipeline.File) error {
	for _, f := range files {
		abs, err := h.Path(f.Name)
		if err != nil {
			return err
		}
		if err := mdstore.WriteFileAtomic(abs, f.Data, 0o644); err != nil {
			return err
		}
		if f.From == "" {
			continue
		}
		from, err := h.Path(f.From)
		if err != nil {
			return err
		}
		if err := os.Remove(from); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// run runs one mode: open the home, run the mode, save its files, print
// its report. A mode's error is returned after its files are saved (a
// blocked handoff records the blocked state).
func (o *HomeOptions) run(write bool, mode func(*pipeline.Env) (*pipeline.Report, error)) error {
	h, err := o.open(write)
	if err != nil {
		return pipelineErr(err)
	}
	defer h.close()
	r, runErr := mode(h.env)
	if r == nil {
		return pipelineErr(runErr)
	}
	commit, err := h.save(o.Env, r)
	if err != nil {
		return err
	}
	if err := printReport(o.Env, h.env.Home, r, commit); err != nil {
		return err
	}
	if !o.Globals.JSON && !o.Globals.Quiet {
		// the report above named every blocker: say it once, and
		// whether it was recorded
		first, _, _ := strings.Cut(fmt.Sprint(runErr), "\n")
		first = strings.TrimSuffix(first, ":")
		switch {
		case errors.Is(runErr, pipeline.ErrBlocked):
			return cmdutil.Blocked(fmt.Errorf("%s; the blockers are listed above and recorded in the state", first))
		case errors.Is(runErr, pipeline.ErrNotValid):
			return cmdutil.Blocked(fmt.Errorf("%s; the problems are listed above; nothing was recorded (a transition records its blockers in the state)", first))
		}
	}
	return pipelineErr(runErr)
}

// workDir is the working directory, the project folder when none is given
// or recorded.
func workDir() string {
	d, _ := pipeline.AbsProjectPath(".")
	return d
}

// pipelineErr maps the pipeline's errors to exit statuses.
func pipelineErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pipeline.ErrBlocked), errors.Is(err, pipeline.ErrNotValid):
		return cmdutil.Blocked(err)
	case errors.Is(err, pipeline.ErrUnknown), errors.Is(err, pipeline.ErrUnsafePath):
		return cmdutil.Usagef("%v", err)
	}
	return err
}

// userHome is the user's home folder ("" when it is unknown).
func userHome() string {
	d, _ := os.UserHomeDir()
	return d
}

// AbsPath is a path as given on the command line or to a tool, with a
// leading "~" or "~/" expanded to the user's home folder, made absolute
// ("" stays "").
func AbsPath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	p, err := pipeline.ExpandHome(p, userHome())
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}
