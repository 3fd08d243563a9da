package gitcommit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// Repo is the git repository around a folder of its work tree (the
// folder commits are made for), laid out as git lays it out: in a linked worktree (`git worktree add`) the worktree's own folder
// holds HEAD, the index and the merge state, and the common folder holds
// the objects, the branches and the config.
type Repo struct {
	st        *filesystem.Storage // go-git's reader of objects and the index
	dir       string              // the folder commits are made for
	root      string              // work tree root
	gitDir    string              // this worktree's git folder (HEAD, index)
	commonDir string              // objects, refs, packed-refs, config
	prefix    string              // dir relative to root, with a trailing slash
	cfg       gitSettings
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

// Open finds the git repository whose work tree holds dir (walking up to
// the folder holding .git, as git does) and reads its settings. Change
// paths are relative to dir.
func Open(dir string) (*Repo, error) {
	dirReal, err := filepath.EvalSymlinks(dir)
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
	r := &Repo{dir: dirReal, root: root, gitDir: gitDir, commonDir: commonDir, prefix: prefix}
	r.cfg = readGitSettings(commonDir, gitDir)
	var fs billy.Filesystem = packFilter{osfs.New(commonDir)}
	if gitDir != commonDir {
		fs = dotgit.NewRepositoryFilesystem(osfs.New(gitDir), fs)
	}
	r.st = filesystem.NewStorageWithOptions(fs, cache.NewObjectLRUDefault(), filesystem.Options{})
	return r, nil
}

// Objects is go-git's reader of the repository's objects and references.
func (r *Repo) Objects() *filesystem.Storage { return r.st }

// Root is the work tree's root folder.
func (r *Repo) Root() string { return r.root }

// Prefix is the path of the folder Open was given, relative to the work
// tree root, with a trailing slash ("" at the root).
func (r *Repo) Prefix() string { return r.prefix }

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
