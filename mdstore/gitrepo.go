package mdstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/cache"
	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// repoInfo is the git repository around a store, laid out as git lays it
// out: in a linked worktree (`git worktree add`) the worktree's own folder
// holds HEAD, the index and the merge state, and the common folder holds
// the objects, the branches and the config.
type repoInfo struct {
	st        *filesystem.Storage // go-git's reader of objects and the index
	root      string              // work tree root
	gitDir    string              // this worktree's git folder (HEAD, index)
	commonDir string              // objects, refs, packed-refs, config
	prefix    string              // store path relative to root, with a trailing slash
	cfg       gitSettings
}

// gitSettings are the git settings that change how curator must commit.
type gitSettings struct {
	autocrlf       string // "true", "input" or "" (core.autocrlf)
	splitIndex     bool   // core.splitIndex
	sparseIndex    bool   // index.sparse
	logRefUpdates  bool   // core.logAllRefUpdates (true unless set false)
	refStorage     string // extensions.refStorage ("" = files)
	worktreeConfig bool   // extensions.worktreeConfig
}

// findGitDirs walks up from dir to the folder holding .git and returns the
// work tree root and the worktree's git folder (a .git file names it).
func findGitDirs(dir string) (root, gitDir string, err error) {
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, ".git")
		fi, err := os.Stat(p)
		if err == nil && fi.IsDir() {
			return d, p, nil
		}
		if err == nil {
			b, err := os.ReadFile(p)
			if err != nil {
				return "", "", err
			}
			line := strings.TrimSpace(string(b))
			target, ok := strings.CutPrefix(line, "gitdir:")
			if !ok {
				return "", "", fmt.Errorf("%s: not a gitdir file", p)
			}
			target = strings.TrimSpace(target)
			if !filepath.IsAbs(target) {
				target = filepath.Join(d, target)
			}
			return d, filepath.Clean(target), nil
		}
		if filepath.Dir(d) == d {
			return "", "", ErrNoRepository
		}
	}
}

func (s *Store) openRepo() (*repoInfo, error) {
	dirReal, err := filepath.EvalSymlinks(s.Dir)
	if err != nil {
		return nil, err
	}
	root, gitDir, err := findGitDirs(dirReal)
	if err != nil {
		return nil, err
	}
	commonDir := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		commonDir = filepath.Clean(c)
	}
	if _, err := os.Stat(filepath.Join(commonDir, "objects")); err != nil {
		return nil, fmt.Errorf("git repository %s is incomplete (no objects folder): %w", commonDir, err)
	}
	rel, err := filepath.Rel(root, dirReal)
	if err != nil {
		return nil, err
	}
	prefix := filepath.ToSlash(rel) + "/"
	if rel == "." {
		prefix = ""
	}
	r := &repoInfo{root: root, gitDir: gitDir, commonDir: commonDir, prefix: prefix}
	r.cfg = readGitSettings(commonDir, gitDir)
	var fs billy.Filesystem = packFilter{osfs.New(commonDir)}
	if gitDir != commonDir {
		fs = dotgit.NewRepositoryFilesystem(osfs.New(gitDir), fs)
	}
	r.st = filesystem.NewStorageWithOptions(fs, cache.NewObjectLRUDefault(), filesystem.Options{})
	return r, nil
}

// readGitSettings reads the settings curator needs from git's config
// files, lowest precedence first: system, global, the repository's, and
// the worktree's (with extensions.worktreeConfig). include directives and
// GIT_CONFIG_* variables are not followed.
func readGitSettings(commonDir, gitDir string) gitSettings {
	set := gitSettings{logRefUpdates: true}
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

// ErrGitSetting means a git setting of the repository is one curator
// cannot commit under without breaking the user's repository.
var ErrGitSetting = errors.New("unsupported git repository setting")

// checkSettings refuses, before anything changes, a repository whose
// settings curator's commits would break.
func (r *repoInfo) checkSettings() error {
	if r.cfg.refStorage != "" && r.cfg.refStorage != "files" {
		return fmt.Errorf("%w: extensions.refStorage=%s (curator updates branches stored as files only)", ErrGitSetting, r.cfg.refStorage)
	}
	if r.cfg.splitIndex {
		return fmt.Errorf("%w: core.splitIndex=true (a split git index); run `git config core.splitIndex false && git update-index --no-split-index`, or pass --no-commit", ErrGitSetting)
	}
	if r.cfg.sparseIndex {
		return fmt.Errorf("%w: index.sparse=true (a sparse git index); run `git sparse-checkout init --no-sparse-index` (a sparse checkout with a full index works), or pass --no-commit", ErrGitSetting)
	}
	return nil
}

// toGit is the blob git would store for a file's content: with
// core.autocrlf set to true or input, a text file's CRLF line ends become
// LF, as `git add` does (a file git takes for binary is kept as it is, see
// gitBinary). .gitattributes text/eol rules are not applied.
func (r *repoInfo) toGit(data []byte) []byte {
	if r.cfg.autocrlf == "" || !containsCRLF(data) || gitBinary(data) {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		out = append(out, data[i])
	}
	return out
}

func containsCRLF(b []byte) bool {
	for i := 0; i+1 < len(b); i++ {
		if b[i] == '\r' && b[i+1] == '\n' {
			return true
		}
	}
	return false
}

// gitBinary reports whether git's autocrlf takes content for binary and
// leaves its line ends alone (convert.c, gather_stats and
// convert_is_binary): a lone CR, a NUL byte, or more than one control
// character per 128 printable ones (backspace, tab, escape and form feed
// count as printable; a final ^Z is not counted).
func gitBinary(b []byte) bool {
	printable, nonprintable := 0, 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
				continue
			}
			return true // a lone CR
		case c == '\n':
		case c == 0:
			return true
		case c == 127:
			nonprintable++
		case c < 32:
			switch c {
			case '\b', '\t', 033, 014:
				printable++
			default:
				nonprintable++
			}
		default:
			printable++
		}
	}
	if len(b) > 0 && b[len(b)-1] == 032 {
		nonprintable--
	}
	return printable>>7 < nonprintable
}

// packFilter hides from go-git a pack file whose index is missing (a pack
// whose writer died before finishing it), as git itself ignores it: go-git
// would otherwise fail on every object lookup.
type packFilter struct{ billy.Filesystem }

func (p packFilter) ReadDir(path string) ([]os.FileInfo, error) {
	infos, err := p.Filesystem.ReadDir(path)
	if err != nil || filepath.ToSlash(filepath.Clean(path)) != "objects/pack" {
		return infos, err
	}
	idx := map[string]bool{}
	for _, fi := range infos {
		if n := fi.Name(); strings.HasSuffix(n, ".idx") {
			idx[strings.TrimSuffix(n, ".idx")] = true
		}
	}
	kept := infos[:0]
	for _, fi := range infos {
		n := fi.Name()
		if strings.HasSuffix(n, ".pack") && !idx[strings.TrimSuffix(n, ".pack")] {
			continue
		}
		kept = append(kept, fi)
	}
	return kept, nil
}
