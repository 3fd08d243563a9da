package pipelinehome

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/dashboard"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
)

// Options say which home to open and how its files are saved.
type Options struct {
	// Store opens the store (the one named, or found from the working
	// directory). When it finds none, Home must name a folder.
	Store func() (*mdstore.Store, error)
	// Home is the folder asked for (--home, CURATOR_SDD_HOME, a tool's
	// home), "~" expanded and made absolute; "" is the store's pipelines/
	// folder.
	Home string
	// UserHome is the user's home folder ("" when it is unknown).
	UserHome string
	// Write begins the store's transaction when the home is inside the
	// store, so that the state a use-case reads is the one it replaces.
	Write bool
	// Tx and Save are the transaction's options and those of its save.
	Tx   mdstore.TxOptions
	Save []mdstore.SaveOption
}

// Home is a pipeline home opened for one use-case.
type Home struct {
	// Env reads the home's files with its pipeline config and the store's
	// settings.
	Env *pipeline.Env
	// Inside is true when the folder is in the store (by default it is
	// the store's pipelines/ folder).
	Inside bool
	saver  pipeline.Saver
	tx     *mdstore.Tx
}

// Saver records the files of a use-case: nil for a home inside the store
// opened without Write.
func (h *Home) Saver() pipeline.Saver { return h.saver }

// Close ends the store's transaction, if Open began one.
func (h *Home) Close() {
	if h.tx != nil {
		h.tx.Close()
	}
}

// Open finds the home folder and loads its pipeline config.
func Open(o Options) (*Home, error) {
	s, err := o.Store()
	if err != nil && (o.Home == "" || !errors.Is(err, mdstore.ErrNoStore)) {
		return nil, err
	}
	h := &Home{}
	settings := pipeline.Settings{}
	now := func() time.Time { return time.Now().UTC() }
	if s != nil {
		settings = Settings(s.Config.Pipelines)
		now = s.Now
	}
	dir, prefix := o.Home, ""
	if dir == "" {
		dir, prefix, h.Inside = s.Path("pipelines"), "pipelines", true
	} else {
		if dir, err = pipeline.AbsPath(dir, o.UserHome); err != nil {
			return nil, fmt.Errorf("--home: %w", err)
		}
		if s != nil {
			if rel, err := filepath.Rel(s.Dir, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				prefix, h.Inside = filepath.ToSlash(rel), true
			}
		}
	}
	folder := pipeline.Home{Dir: dir}
	switch {
	case !h.Inside:
		h.saver = outside{folder}
	case o.Write:
		if h.tx, err = s.Begin(o.Tx); err != nil {
			return nil, err
		}
		h.saver = &inside{tx: h.tx, home: folder, prefix: prefix, save: o.Save}
	}
	cfg, err := pipeline.LoadConfig(filepath.Join(dir, pipeline.ConfigName), settings)
	if err != nil {
		h.Close()
		return nil, pipeline.Refused(err)
	}
	h.Env = &pipeline.Env{Home: folder, Config: cfg, Now: now, Dashboard: dashboard.ForPipeline, UserHome: o.UserHome}
	if s != nil {
		h.Env.Secrets = s.Secrets()
	}
	if h.Inside {
		// the files are committed: paths in them are relative to the repository
		if root, _, err := s.RepoPlace(); err == nil {
			h.Env.Root = root
		}
	}
	return h, nil
}

// Settings are config.yaml's pipelines section as the pipeline's settings
// (a home's pipeline-config.json overrides them).
func Settings(c config.Pipelines) pipeline.Settings {
	return pipeline.Settings{ContextWindow: c.ContextWindow, CompressionThreshold: c.CompressionThreshold,
		StateBackups: &c.StateBackups, EnableDriftDetection: &c.EnableDriftDetection, EnableDashboard: &c.EnableDashboard}
}
