package storesync

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/merge"
)

// A rebase replays commits one at a time. When `curator resolve` gives a
// replayed record a fresh id, the later commits of the same rebase still
// name the old id; the renumberings are kept in the rebase's own state
// folder (removed by git when the rebase ends) so that the merge driver
// stops on those records and resolve applies the later changes to the
// renumbered record.

// renumberedFile is the file in git's rebase state folder.
const renumberedFile = "curator-renumbered.json"

// GitDir is the git folder of the work tree at root: root/.git, or the
// folder a .git file names (a linked worktree, a submodule).
func GitDir(root string) string {
	dot := filepath.Join(root, ".git")
	b, err := os.ReadFile(dot)
	if err != nil {
		return dot // a folder (or nothing)
	}
	p := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(b)), "gitdir:"))
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return p
}

// RebaseState is the state folder of the rebase in progress in the git
// folder gitDir ("" when none is).
func RebaseState(gitDir string) string {
	for _, d := range []string{"rebase-merge", "rebase-apply"} {
		p := filepath.Join(gitDir, d)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
	}
	return ""
}

// Renumbered reads the renumberings made so far in a rebase.
func Renumbered(state string) ([]merge.Renumber, error) {
	if state == "" {
		return nil, nil
	}
	b, err := os.ReadFile(filepath.Join(state, renumberedFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []merge.Renumber
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// KeepRenumbered adds renumberings to the rebase's list.
func KeepRenumbered(state string, add []merge.Renumber) error {
	if state == "" || len(add) == 0 {
		return nil
	}
	cur, err := Renumbered(state)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(append(cur, add...), "", "  ")
	if err != nil {
		return err
	}
	return durable.WriteFile(filepath.Join(state, renumberedFile), append(b, '\n'), 0o644, true)
}
