package bulletid

import (
	"strings"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// Known returns every bullet id the store has ever used, by the three
// sources the package describes. Merge-log lines that
// cannot be read are returned as invalid files; they do not stop the run.
func Known(s *mdstore.Store, list *mdstore.BulletList) ([]string, []*mdstore.InvalidFile, error) {
	ids := make([]string, 0, len(list.Active)+len(list.Archived))
	for _, b := range list.All() {
		ids = append(ids, b.ID)
		if b.ParentBulletID != "" {
			ids = append(ids, b.ParentBulletID)
		}
		ids = append(ids, b.MergedFrom...)
	}
	return knownIDs(s, ids, list.Invalid)
}

// KnownIndexed is Known for the bullets the bullet index
// lists, without decoding every bullet.
func KnownIndexed(s *mdstore.Store, ib *cache.IndexedBullets) ([]string, []*mdstore.InvalidFile, error) {
	ids := make([]string, 0, len(ib.Active)+len(ib.Archived))
	for _, group := range [][]*cache.BulletSummary{ib.Active, ib.Archived} {
		for _, sum := range group {
			ids = append(ids, sum.ID)
		}
	}
	return knownIDs(s, append(ids, ib.OtherIDs()...), ib.Invalid)
}

// knownIDs adds to the ids of the bullets (and the ids they name) the ids
// of unreadable bullet files, merge logs and the branches' trees.
func knownIDs(s *mdstore.Store, ids []string, invalid []*mdstore.InvalidFile) ([]string, []*mdstore.InvalidFile, error) {
	// An unreadable bullet file still holds its id: never hand it out (the
	// new bullet would overwrite the file).
	for _, f := range invalid {
		if strings.HasSuffix(f.Path, ".md") {
			ids = append(ids, strings.TrimSuffix(f.Path[strings.LastIndex(f.Path, "/")+1:], ".md"))
		}
	}
	logIDs, bad, err := cache.MergeLogIDs(s)
	if err != nil {
		return nil, nil, err
	}
	ids = append(ids, logIDs...)
	refIDs, err := idsAtTips(s)
	if err != nil {
		return nil, nil, err
	}
	ids = append(ids, refIDs...)
	return ids, bad, nil
}
