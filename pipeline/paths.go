package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/curator-dev/curator/internal/safepath"
)

// ErrUnsafePath means a project name or artifact path that would lead out of
// the project or the pipeline home folder.
var ErrUnsafePath = errors.New("unsafe path")

// Home is the folder of a pipeline's files (the store's pipelines/ folder,
// or --home). Every name below is relative to it, with slashes.
type Home struct{ Dir string }

// CheckProject refuses project names that are not a safe single file name.
func CheckProject(project string) error {
	if err := safepath.CheckID(project); err != nil {
		return fmt.Errorf("%w: project name %q must be a plain file name (no /, \\, .., leading dot, space at either end, control or bidi character): %v", ErrUnsafePath, project, err)
	}
	if strings.ContainsAny(project, " *?[]:") {
		return fmt.Errorf("%w: project name %q has spaces or glob characters", ErrUnsafePath, project)
	}
	return nil
}

// ConfigName is the optional pipeline definitions file.
const ConfigName = "pipeline-config.json"

// StateName is the state file of a project.
func StateName(project string) string { return "pipeline-state-" + project + ".json" }

// BackupIgnore is the git-ignore rule of the state backups: history is
// their backup, so they are never committed.
const BackupIgnore = "pipeline-state-*.json.bak.*"

// IsBackup reports whether a home-relative name is a state backup.
func IsBackup(name string) bool {
	ok, _ := path.Match(BackupIgnore, name)
	return ok
}

// BackupName is the n-th backup of a project's state (1 is the newest).
func BackupName(project string, n int) string {
	return StateName(project) + ".bak." + strconv.Itoa(n)
}

// BriefName is the brief for phase number n (and step k when k > 0).
func BriefName(project string, n int, phase string, step int) string {
	name := fmt.Sprintf("context-briefs/%s/%d-%s", project, n, phase)
	if step > 0 {
		name += "-step-" + strconv.Itoa(step)
	}
	return name + ".md"
}

// DashboardName is the dashboard of a project.
func DashboardName(project string) string { return "dashboard-" + project + ".html" }

// Path is the absolute path of a home-relative name; it refuses names that
// leave the folder, also through a symlink.
func (h Home) Path(name string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(name))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %s leaves %s", ErrUnsafePath, name, h.Dir)
	}
	p := filepath.Join(h.Dir, clean)
	if err := insideExisting(h.Dir, p); err != nil {
		return "", err
	}
	return p, nil
}

// insideExisting checks the longest existing prefix of p for a symlink that
// leads out of root.
func insideExisting(root, p string) error {
	for q := p; len(q) >= len(root); q = filepath.Dir(q) {
		if _, err := os.Lstat(q); err == nil {
			if err := safepath.Inside(root, q); err != nil {
				return fmt.Errorf("%w: %s leads out of %s through a symlink", ErrUnsafePath, p, root)
			}
			return nil
		}
		if q == filepath.Dir(q) {
			break
		}
	}
	return nil
}

// ProjectFile resolves an artifact path relative to the project folder and
// refuses paths outside it (../, absolute paths elsewhere, symlinks out).
// It returns the absolute path and the project-relative slash path.
func ProjectFile(project, rel string) (string, string, error) {
	p := rel
	if !filepath.IsAbs(p) {
		p = filepath.Join(project, filepath.FromSlash(rel))
	}
	p = filepath.Clean(p)
	r, err := filepath.Rel(project, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", "", fmt.Errorf("%w: artifact %s is outside the project folder %s", ErrUnsafePath, rel, project)
	}
	if err := insideExisting(project, p); err != nil {
		return "", "", err
	}
	return p, filepath.ToSlash(r), nil
}

// findArtifact returns the project-relative path of the file a rule names:
// the first pattern with a match wins; among its matches the last in name
// order. It returns "" when nothing matches.
func findArtifact(project string, rule ArtifactRule) (string, error) {
	for _, pat := range rule.Paths {
		abs, _, err := ProjectFile(project, pat)
		if err != nil {
			return "", err
		}
		matches, err := filepath.Glob(abs)
		if err != nil {
			return "", fmt.Errorf("artifact pattern %q: %w", pat, err)
		}
		sort.Strings(matches)
		for i := len(matches) - 1; i >= 0; i-- {
			if fi, err := os.Stat(matches[i]); err == nil && fi.Mode().IsRegular() {
				_, r, err := ProjectFile(project, matches[i])
				return r, err
			}
		}
	}
	return "", nil
}

// ExpandHome expands a leading "~" or "~/…" of a path to the user's home
// folder userHome. Other paths are returned as they are; "~" cannot be
// expanded when userHome is unknown (""), so it is an error rather than a
// folder named "~".
func ExpandHome(p, userHome string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, `~\`) {
		return p, nil
	}
	if userHome == "" {
		return "", fmt.Errorf("%s: the home folder is unknown, so ~ cannot be expanded", p)
	}
	if p == "~" {
		return userHome, nil
	}
	return filepath.Join(userHome, filepath.FromSlash(p[2:])), nil
}

// PortablePath is how a project folder is stored in the state: "~/…" (with
// slashes) when it lies under the user's home folder, as it is otherwise.
func PortablePath(p, userHome string) string {
	if userHome == "" || p == "" || !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(filepath.Clean(userHome), filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return p
	}
	if rel == "." {
		return "~"
	}
	return "~/" + filepath.ToSlash(rel)
}

// AbsPath is a folder as a person gives it (a flag, a tool's argument):
// a leading "~" or "~/" expanded to the user's home folder userHome, then
// made absolute against the working directory ("" stays "").
func AbsPath(p, userHome string) (string, error) {
	if p == "" {
		return "", nil
	}
	p, err := ExpandHome(p, userHome)
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}
