// Package mergedrivercmd is `curator merge-driver`, the merge driver git
// runs for the store's record files (registered by `curator init`).
package mergedrivercmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/merge"
	"github.com/curator-dev/curator/storesync"
)

// NewCmd builds `curator merge-driver BASE OURS THEIRS PATH`.
func NewCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:      "merge-driver",
		Usage:     "merge one store file record by record (git runs this; see .curator/.gitattributes)",
		ArgsUsage: "BASE OURS THEIRS PATH",
		Description: "git calls it as `curator merge-driver %O %A %B %P` during merge, pull and rebase: BASE, OURS and\n" +
			"THEIRS are files holding the three versions, PATH the file's path in the repository. The merged\n" +
			"result is written into OURS: counters add both sides' increments, lists join, timestamps take the\n" +
			"later, a key changed on one side takes that side; two different new values keep ours and record\n" +
			"theirs under merge_conflicts (the frontmatter stays valid, it never gets conflict markers).\n" +
			"Exit 0 when the merge is clean; 1 when something conflicts (git then marks the path for review),\n" +
			"when a version cannot be read or is not a record (empty, no frontmatter, a key set twice, or\n" +
			"lacking the id, keys or body the other versions have), when the versions hold two records (git\n" +
			"paired a deleted record with a new one of similar content), or when `curator resolve` gave the\n" +
			"record a new id earlier in the rebase in progress (OURS is left as it was; `curator resolve`\n" +
			"finishes the last two).",
		Action: func(c *cli.Context) error {
			if c.NArg() != 4 {
				return cmdutil.Usagef("merge-driver takes BASE OURS THEIRS PATH (got %d arguments)", c.NArg())
			}
			a := c.Args().Slice()
			return Run(f.Env(c), a[0], a[1], a[2], a[3])
		},
	}
}

// Run merges the three versions of the file at path (repository-relative)
// into the file ours.
func Run(env cmdutil.Env, basePath, oursPath, theirsPath, path string) error {
	base, err := os.ReadFile(basePath)
	if err != nil {
		return err
	}
	ours, err := os.ReadFile(oursPath)
	if err != nil {
		return err
	}
	theirs, err := os.ReadFile(theirsPath)
	if err != nil {
		return err
	}
	if len(base) == 0 {
		base = nil // both sides added the file
	}
	if n := renumberedEarlier(path); n != nil {
		// Git calls the driver from the work tree's root.
		return fmt.Errorf("%s: this rebase gave the record the id %s at an earlier commit; run `curator resolve` to apply this commit's change to %s",
			path, n.New, n.Path)
	}
	res, err := merge.File(storePath(path), base, ours, theirs)
	var two *merge.IdentityError
	var side *merge.SideError
	switch {
	case errors.As(err, &two):
		return fmt.Errorf("%s: %s holds the record %s, %s the record %s: git paired two records by their similar content, so ours is left as it was; run `curator resolve` when git stops, which pairs records by id",
			path, two.Sides[0], two.IDs[0], two.Sides[1], two.IDs[1])
	case errors.As(err, &side) && side.Side != "":
		return fmt.Errorf("%s (%s): %v; ours is left as it was: restore that version, or merge the file by hand", path, side.Side, side.Err)
	case err != nil:
		return fmt.Errorf("%s: %w (ours kept; merge it by hand)", path, err)
	}
	if res.Data == nil {
		return errors.New(path + ": the merge removes the file; git keeps ours")
	}
	if err := durable.WriteFile(oursPath, res.Data, 0o644, true); err != nil {
		return err
	}
	for _, c := range res.Conflicts {
		what := c.Key
		if what == "" {
			what = "body"
		}
		env.Warn("curator merge-driver: %s:%d: %s differs on both sides (ours kept, theirs %s)\n", path, c.Line, what, theirsNote(c))
	}
	if len(res.Conflicts) > 0 {
		return fmt.Errorf("%s: %d conflict(s) left for review", path, len(res.Conflicts))
	}
	return nil
}

// storePath is a repository path relative to the store folder, which the
// merge rules are written for (memory/state.json, pipelines/…).
func storePath(p string) string {
	p = filepath.ToSlash(p)
	if i := strings.Index(p, mdstore.DirName+"/"); i >= 0 && (i == 0 || p[i-1] == '/') {
		return p[i+len(mdstore.DirName)+1:]
	}
	return p
}

func theirsNote(c merge.Conflict) string {
	switch c.Kind {
	case merge.ValueConflict:
		return "under merge_conflicts"
	case merge.LinesConflict:
		return "between conflict markers"
	case merge.AddedConflict:
		return "not in the file: both sides created it; run `curator resolve` (a record created twice gets a second id)"
	}
	return "not in the file: it merges only whole"
}

// renumberedEarlier is the renumbering an earlier step of the rebase in
// progress made for the record at path (nil when none did). Git runs the
// driver in the work tree's root.
func renumberedEarlier(path string) *merge.Renumber {
	list, err := storesync.Renumbered(storesync.RebaseState(storesync.GitDir(".")))
	if err != nil || len(list) == 0 {
		return nil
	}
	key, ok := merge.RecordKey(storePath(path))
	if !ok {
		return nil
	}
	for i, r := range list {
		if k, ok := merge.RecordKey(r.Path); ok && k[:strings.IndexByte(k, 0)+1]+r.Old == key {
			return &list[i]
		}
	}
	return nil
}
