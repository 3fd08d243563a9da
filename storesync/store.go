package storesync

import (
	"bytes"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/curator-dev/curator/internal/gittree"
	"github.com/curator-dev/curator/merge"
)

// store merges the store's files that either side changed. Each side's
// map holds those paths as that side has them (a path the side did not
// change is the base's version), so records are paired across folders the
// same way as in a full merge.
func (r Repo) store(p *Plan, dOurs, dTheirs map[string]gittree.Change, trees []plumbing.Hash) error {
	base, ours, theirs := map[string][]byte{}, map[string][]byte{}, map[string][]byte{}
	paths := map[string]bool{}
	oursKeys, theirsKeys := map[string]bool{}, map[string]bool{}
	for _, side := range []struct {
		d    map[string]gittree.Change
		keys map[string]bool
	}{{dOurs, oursKeys}, {dTheirs, theirsKeys}} {
		for path := range side.d {
			rel, ok := strings.CutPrefix(path, r.Prefix)
			if !ok || r.ByHand[rel] {
				continue
			}
			paths[path] = true
			if k, ok := merge.RecordKey(rel); ok {
				side.keys[k] = true
			}
		}
	}
	for path := range paths {
		rel := strings.TrimPrefix(path, r.Prefix)
		o, inOurs := dOurs[path]
		t, inTheirs := dTheirs[path]
		old := o.Old
		if !inOurs {
			old = t.Old
		}
		b, err := r.blob(old)
		if err != nil {
			return err
		}
		put(base, rel, b)
		for _, s := range []struct {
			c   gittree.Change
			in  bool
			out map[string][]byte
		}{{o, inOurs, ours}, {t, inTheirs, theirs}} {
			if !s.in {
				put(s.out, rel, b)
				continue
			}
			data, err := r.blob(s.c.New)
			if err != nil {
				return err
			}
			put(s.out, rel, data)
		}
	}
	var err error
	if base, err = merge.Rename(base, r.Renumbered); err != nil {
		return err
	}
	if theirs, err = merge.Rename(theirs, r.Renumbered); err != nil {
		return err
	}
	known := func() ([]string, error) {
		all := trees
		for _, h := range r.Reserved {
			t, err := r.tree(h)
			if err != nil {
				return nil, err
			}
			all = append(all, t)
		}
		return r.storePaths(all)
	}
	res, err := merge.TreeOf(base, ours, theirs, merge.TreeOptions{Known: known, Published: r.Published})
	if err != nil {
		return err
	}
	touched := map[string]bool{}
	for _, side := range []map[string][]byte{base, ours, theirs} {
		for rel := range side {
			touched[rel] = true
		}
	}
	for rel := range res.Files {
		touched[rel] = true
	}
	for _, rel := range sortedKeys(touched) {
		now, had := res.Files[rel], ours[rel]
		p.Settled = append(p.Settled, FileChange{Path: rel, Data: now, Ours: had})
		if (now == nil) == (had == nil) && bytes.Equal(now, had) {
			continue
		}
		p.Changes = append(p.Changes, FileChange{Path: rel, Data: now, Ours: had})
	}
	p.Renumbered = res.Renumbered
	for _, c := range res.Conflicts {
		if c.Decision() {
			p.Kept = append(p.Kept, c)
		} else {
			p.Conflicts = append(p.Conflicts, c)
		}
	}
	p.OursRecords, p.TheirsRecords = len(oursKeys), len(theirsKeys)
	for _, k := range sortedKeys(oursKeys) {
		if theirsKeys[k] {
			p.Both = append(p.Both, k[strings.IndexByte(k, 0)+1:])
		}
	}
	return nil
}

// put records a version of a file; nil (absent) is not stored.
func put(m map[string][]byte, rel string, data []byte) {
	if data != nil {
		m[rel] = data
	}
}

// storePaths lists every file of the store in the given trees (store-
// relative), for choosing ids no record holds.
func (r Repo) storePaths(trees []plumbing.Hash) ([]string, error) {
	seen := map[string]bool{}
	for _, t := range trees {
		sub, err := gittree.Lookup(r.raw, t, strings.TrimSuffix(r.Prefix, "/"))
		if err != nil {
			return nil, err
		}
		err = gittree.Files(r.raw, sub, "", func(p string) error {
			seen[p] = true
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return sortedKeys(seen), nil
}
