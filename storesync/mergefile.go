package storesync

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/merge"
)

// MergeFile is the merge driver: it merges the three versions of the store
// file at path (repository-relative, as git gives it; git runs the driver
// in the work tree's root) record by record into the file oursPath, and
// returns what conflicts, theirs kept as Conflict.Kind says. A conflict
// left, or a version that cannot be merged, is an error naming path (ours
// is then left as it was).
func MergeFile(basePath, oursPath, theirsPath, path string) ([]merge.Conflict, error) {
	base, err := os.ReadFile(basePath)
	if err != nil {
		return nil, err
	}
	ours, err := os.ReadFile(oursPath)
	if err != nil {
		return nil, err
	}
	theirs, err := os.ReadFile(theirsPath)
	if err != nil {
		return nil, err
	}
	if len(base) == 0 {
		base = nil // both sides added the file
	}
	if n := renumberedEarlier(path); n != nil {
		// Git calls the driver from the work tree's root.
		return nil, fmt.Errorf("%s: this rebase gave the record the id %s at an earlier commit; run `curator resolve` to apply this commit's change to %s",
			path, n.New, n.Path)
	}
	res, err := merge.File(storePath(path), base, ours, theirs)
	var two *merge.IdentityError
	var side *merge.SideError
	switch {
	case errors.As(err, &two):
		return nil, fmt.Errorf("%s: %s holds the record %s, %s the record %s: git paired two records by their similar content, so ours is left as it was; run `curator resolve` when git stops, which pairs records by id",
			path, two.Sides[0], two.IDs[0], two.Sides[1], two.IDs[1])
	case errors.As(err, &side) && side.Side != "":
		return nil, fmt.Errorf("%s (%s): %v; ours is left as it was: restore that version, or merge the file by hand", path, side.Side, side.Err)
	case err != nil:
		return nil, fmt.Errorf("%s: %w (ours kept; merge it by hand)", path, err)
	}
	if res.Data == nil {
		return nil, errors.New(path + ": the merge removes the file; git keeps ours")
	}
	if err := durable.WriteFile(oursPath, res.Data, 0o644, true); err != nil {
		return nil, err
	}
	if len(res.Conflicts) > 0 {
		return res.Conflicts, fmt.Errorf("%s: %d conflict(s) left for review", path, len(res.Conflicts))
	}
	return nil, nil
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

// renumberedEarlier is the renumbering an earlier step of the rebase in
// progress made for the record at path (nil when none did). Git runs the
// driver in the work tree's root.
func renumberedEarlier(path string) *merge.Renumber {
	list, err := Renumbered(RebaseState(GitDir(".")))
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
