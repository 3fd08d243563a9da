package gitcommit

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
)

// gitSettings are the git settings that change how curator must commit.
type gitSettings struct {
	autocrlf        string // "true", "input" or "" (core.autocrlf)
	splitIndex      bool   // core.splitIndex
	sparseIndex     bool   // index.sparse
	logRefUpdates   bool   // core.logAllRefUpdates (true unless set false)
	refStorage      string // extensions.refStorage ("" = files)
	worktreeConfig  bool   // extensions.worktreeConfig
	gcAuto          int    // gc.auto: loose objects before a repack (0 = never)
	gcAutoPackLimit int    // gc.autoPackLimit: packs before they are joined (0 = never)
}

// readGitSettings reads the settings curator needs from git's config
// files, lowest precedence first: system, global, the repository's, and
// the worktree's (with extensions.worktreeConfig). include directives and
// GIT_CONFIG_* variables are not followed.
func readGitSettings(commonDir, gitDir string) gitSettings {
	set := gitSettings{logRefUpdates: true, gcAuto: 6700, gcAutoPackLimit: 50}
	var files []string
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		files = append(files, "/etc/gitconfig")
	}
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		files = append(files, g)
	} else {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		home, _ := os.UserHomeDir()
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	files = append(files, filepath.Join(commonDir, "config"))
	read := func(path string) {
		f, err := os.Open(path)
		if err != nil {
			return
		}
		defer f.Close()
		c := gitconfig.New()
		if gitconfig.NewDecoder(f).Decode(c) != nil {
			return
		}
		core := c.Section("core")
		if core.HasOption("autocrlf") {
			switch v := strings.ToLower(core.Option("autocrlf")); {
			case v == "input":
				set.autocrlf = "input"
			case gitBool(v):
				set.autocrlf = "true"
			default:
				set.autocrlf = ""
			}
		}
		if core.HasOption("splitIndex") {
			set.splitIndex = gitBool(core.Option("splitIndex"))
		}
		if core.HasOption("logAllRefUpdates") {
			v := strings.ToLower(core.Option("logAllRefUpdates"))
			set.logRefUpdates = v == "always" || gitBool(v)
		}
		if idx := c.Section("index"); idx.HasOption("sparse") {
			set.sparseIndex = gitBool(idx.Option("sparse"))
		}
		if gc := c.Section("gc"); gc.HasOption("auto") || gc.HasOption("autoPackLimit") {
			if n, ok := gitInt(gc.Option("auto")); ok && gc.HasOption("auto") {
				set.gcAuto = n
			}
			if n, ok := gitInt(gc.Option("autoPackLimit")); ok && gc.HasOption("autoPackLimit") {
				set.gcAutoPackLimit = n
			}
		}
		ext := c.Section("extensions")
		if ext.HasOption("refStorage") {
			set.refStorage = strings.ToLower(ext.Option("refStorage"))
		}
		if ext.HasOption("worktreeConfig") {
			set.worktreeConfig = gitBool(ext.Option("worktreeConfig"))
		}
	}
	for _, f := range files {
		read(f)
	}
	if set.worktreeConfig {
		read(filepath.Join(gitDir, "config.worktree"))
	}
	return set
}

// gitBool reads a git boolean ("true", "yes", "on", "1", or a key given
// without a value).
func gitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on", "1":
		return true
	}
	return false
}

// gitInt reads a git integer, with an optional k, m or g suffix.
func gitInt(v string) (int, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	mult := 1
	switch {
	case strings.HasSuffix(v, "k"):
		mult, v = 1<<10, v[:len(v)-1]
	case strings.HasSuffix(v, "m"):
		mult, v = 1<<20, v[:len(v)-1]
	case strings.HasSuffix(v, "g"):
		mult, v = 1<<30, v[:len(v)-1]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, false
	}
	return n * mult, true
}

// checkSettings refuses, before anything changes, a repository whose
// settings curator's commits would break.
func (r *Repo) checkSettings() error {
	if r.cfg.refStorage != "" && r.cfg.refStorage != "files" {
		return fmt.Errorf("%w: extensions.refStorage=%s (curator updates branches stored as files only)", ErrSetting, r.cfg.refStorage)
	}
	if r.cfg.splitIndex {
		return fmt.Errorf("%w: core.splitIndex=true (a split git index); run `git config core.splitIndex false && git update-index --no-split-index`, or pass --no-commit", ErrSetting)
	}
	if r.cfg.sparseIndex {
		return fmt.Errorf("%w: index.sparse=true (a sparse git index); run `git sparse-checkout init --no-sparse-index` (a sparse checkout with a full index works), or pass --no-commit", ErrSetting)
	}
	return nil
}
