// Package mergedrivercmd is `curator merge-driver`, the merge driver git
// runs for the store's record files (registered by `curator init`).
package mergedrivercmd

import (
	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
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
// into the file ours, and names each conflict left on stderr.
func Run(env cmdutil.Env, basePath, oursPath, theirsPath, path string) error {
	conflicts, err := storesync.MergeFile(basePath, oursPath, theirsPath, path)
	for _, c := range conflicts {
		what := c.Key
		if what == "" {
			what = "body"
		}
		env.Warn("curator merge-driver: %s:%d: %s differs on both sides (ours kept, theirs %s)\n", path, c.Line, what, theirsNote(c))
	}
	return err
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
