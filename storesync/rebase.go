package storesync

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

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

// OrigHead is the branch tip a rebase replays (its state folder's
// orig-head), zero when it cannot be read. A fresh id given during the
// rebase must name no record of that tip either: a later replayed commit
// creates it.
func OrigHead(state string) plumbing.Hash {
	if state == "" {
		return plumbing.ZeroHash
	}
	b, err := os.ReadFile(filepath.Join(state, "orig-head"))
	if err != nil {
		return plumbing.ZeroHash
	}
	h := plumbing.NewHash(strings.TrimSpace(string(b)))
	return h
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

// todoFile is the rebase's list of the commits still to replay (the merge
// backend's; the apply backend has none and cannot run commands).
const todoFile = "git-rebase-todo"

// FollowRenumbered makes the rest of a rebase carry renumberings into the
// commits git replays on its own. Git merges a later commit without asking
// the merge driver when only that commit changed a file, so a reference it
// makes to a renumbered record (a reflection's helpful_bullets, a merge-log
// line) would keep the old id, which now names the other side's record.
// After each commit still to be picked, the todo list gets the line
//
//	exec <command> <commit>
//
// which redoes that commit's store files with the renumberings (see
// ReplayedCommit) and amends it. Lines already there are not added again.
// It reports whether the todo list could be followed (false for the apply
// backend, which has no todo list).
func FollowRenumbered(state, command string) (bool, error) {
	p := filepath.Join(state, todoFile)
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	lines := strings.SplitAfter(string(b), "\n")
	var out strings.Builder
	changed := false
	for i, line := range lines {
		out.WriteString(line)
		f := strings.Fields(line)
		if len(f) < 2 || !picks[f[0]] {
			continue
		}
		step := "exec " + command + " " + f[1]
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == step {
			continue
		}
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n")
		}
		out.WriteString(step + "\n")
		changed = true
	}
	if !changed {
		return true, nil
	}
	return true, durable.WriteFile(p, []byte(out.String()), 0o644, true)
}

// picks are the todo commands that replay a commit as its own commit.
var picks = map[string]bool{"pick": true, "p": true, "reword": true, "r": true, "edit": true, "e": true}
