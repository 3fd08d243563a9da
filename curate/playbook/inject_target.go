package playbook

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/safepath"
)

// Defaults of an injection: the file written and how many bullets.
const (
	DefaultInjectFile = "CLAUDE.md"
	DefaultInjectTop  = 20
)

// checkTarget refuses a file an injection kept inside a folder may not
// write (InjectRequest.Inside, the MCP server's working directory): one
// that is not markdown, lies outside the folder (or leads out of it
// through a symlink), or lies in the store (whose files change only
// through curator's tools).
func checkTarget(file, inside, store string) error {
	if !strings.EqualFold(filepath.Ext(file), ".md") {
		return refuse.Requestf("file %q: inject writes markdown files only (.md), such as CLAUDE.md or AGENTS.md", file)
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(inside, abs)
	}
	if !within(inside, abs) {
		return refuse.Requestf("file %q: the file must be inside the working directory %s", file, inside)
	}
	// the file, and the folder it is written in (made when missing),
	// stay inside through every symlink, and out of the store
	storeReal, err := filepath.EvalSymlinks(store)
	if err != nil {
		return err
	}
	for _, p := range []string{abs, existing(filepath.Dir(abs))} {
		if err := safepath.Inside(inside, p); err != nil {
			return refuse.Requestf("file %q leads outside the working directory %s through a symlink", file, inside)
		}
		real, err := filepath.EvalSymlinks(p)
		if within(store, p) || err == nil && within(storeReal, real) {
			return refuse.Requestf("file %q is in the store %s, whose files change only through curator's tools", file, store)
		}
	}
	return nil
}

// existing is dir, or its nearest folder that exists.
func existing(dir string) string {
	for {
		if _, err := os.Lstat(dir); err == nil || filepath.Dir(dir) == dir {
			return dir
		}
		dir = filepath.Dir(dir)
	}
}

// within reports whether path is dir or lies under it (both absolute,
// compared as written).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
