package merge

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/curator-dev/curator/frontmatter"
)

// TreeResult is the merged store.
type TreeResult struct {
	// Files is every path that exists after the merge.
	Files map[string][]byte
	// Renumbered lists the ids given to the unpublished side's colliding
	// new records.
	Renumbered []Renumber
	// Conflicts come from the file merges and from moves, with paths.
	Conflicts []Conflict
}

// Tree merges three versions of the store's files (store-relative path →
// bytes; a missing path is absent).
//
// Records (memories, bullets, reflections) are paired by id across folders,
// so a move is one record at another path, never a delete and an add:
//
//   - A record created on both sides with different content keeps the id on
//     the published side (TreeOptions.Published, ours unless told); the
//     other side's record gets a fresh id (see nextFreeID) and every
//     reference to the old id in a file that side changed is rewritten
//     (merged_from, parent_bullet_id, helpful_bullets, harmful_bullets,
//     source_reflections, merge-log and metrics lines). Identical content
//     on both sides is one record.
//   - A record moved on one side only ends in that side's folder. A record
//     moved to different folders on both sides ends in the folder of higher
//     precedence: memory trash > confirmed > inbox, bullet archive > active,
//     reflection merged > pending — the folders that retire a record win,
//     since retiring is reversible and keeps the file. Two folders of the
//     same precedence (another type or category) keep ours' folder and
//     report a Conflict with Key "(folder)". The keys the folder decides
//     (status and type, is_active and category, curator_status) follow the
//     winning folder; every other change of both sides is merged by File.
//   - A record deleted on one side and edited or moved on the other is kept
//     where the other side has it, and the deletion is reported.
//
// Every other path is merged by File on its own.
func Tree(base, ours, theirs map[string][]byte) (TreeResult, error) {
	return TreeOf(base, ours, theirs, TreeOptions{})
}

// TreeOptions are what a store merge may know beyond the three sides.
type TreeOptions struct {
	// Known, for sides that hold only the files that changed (and the
	// other versions of their records), lists every store path of the
	// three sides when a new id collides, so that the fresh id names no
	// record left out of the maps.
	Known func() ([]string, error)
	// Published is the side whose records others may already name — the
	// remote's, when a clone merges what it fetched: its ids never change,
	// and the other side's colliding new records are the ones renumbered.
	// The zero value means Ours.
	Published Side
}

// TreeOf is Tree with options.
func TreeOf(base, ours, theirs map[string][]byte, opts TreeOptions) (TreeResult, error) {
	res := TreeResult{Files: map[string][]byte{}}
	bi, oi, ti := indexRecords(base), indexRecords(ours), indexRecords(theirs)
	var renames []Renumber
	var err error
	if opts.Published == Theirs {
		ours, renames, err = renumber(base, theirs, ours, bi, ti, oi, opts.Known, Ours)
		oi = indexRecords(ours)
	} else {
		theirs, renames, err = renumber(base, ours, theirs, bi, oi, ti, opts.Known, Theirs)
		ti = indexRecords(theirs)
	}
	if err != nil {
		return TreeResult{}, err
	}
	res.Renumbered = renames

	keys := map[string]bool{}
	for _, ix := range []recordIndex{bi, oi, ti} {
		for k := range ix.paths {
			keys[k] = true
		}
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		if err := res.record(k, base, ours, theirs, bi, oi, ti); err != nil {
			return TreeResult{}, err
		}
	}

	plain := map[string]bool{}
	for _, s := range []struct {
		files map[string][]byte
		ix    recordIndex
	}{{base, bi}, {ours, oi}, {theirs, ti}} {
		for p := range s.files {
			if !s.ix.isRecord(p) {
				plain[p] = true
			}
		}
	}
	for _, p := range sortedKeys(plain) {
		r, err := File(p, base[p], ours[p], theirs[p])
		if err != nil {
			return TreeResult{}, err
		}
		res.Conflicts = append(res.Conflicts, r.Conflicts...)
		if r.Data == nil {
			continue
		}
		if _, taken := res.Files[p]; taken {
			res.Conflicts = append(res.Conflicts, Conflict{Path: p, Kind: DuplicateConflict, Key: "(record)", Ours: "record kept", Theirs: "second copy of the record dropped"})
			continue
		}
		res.Files[p] = r.Data
	}
	return res, nil
}

// record merges one record, paired by id, into res.
func (res *TreeResult) record(k string, base, ours, theirs map[string][]byte, bi, oi, ti recordIndex) error {
	bp, op, tp := bi.paths[k], oi.paths[k], ti.paths[k]
	var b, o, t []byte
	if bp != "" {
		b = base[bp]
	}
	if op != "" {
		o = ours[op]
	}
	if tp != "" {
		t = theirs[tp]
	}
	var target string
	switch {
	case op == "" && tp == "":
		return nil
	case op == "":
		target = tp
	case tp == "" || op == tp || tp == bp:
		target = op
	case op == bp:
		target = tp
	default:
		or, tr := oi.ids[k], ti.ids[k]
		target = op
		if tr.rank > or.rank {
			target = tp
		} else if tr.rank == or.rank {
			res.Conflicts = append(res.Conflicts, Conflict{Path: op, Kind: FolderConflict, Key: "(folder)", Ours: op, Theirs: tp})
		}
		var err error
		if target == op {
			t, err = follow(tp, t, o, or.kind)
		} else {
			o, err = follow(op, o, t, or.kind)
		}
		if err != nil {
			return err
		}
	}
	r, err := File(target, b, o, t)
	if err != nil {
		return err
	}
	res.Conflicts = append(res.Conflicts, r.Conflicts...)
	if r.Data == nil && bp != "" {
		// A deletion against a side that only moved the record: the move is a
		// change, so the record stays where that side put it.
		if op == "" && tp != bp {
			r.Data = t
			res.Conflicts = append(res.Conflicts, Conflict{Path: tp, Kind: MovedKept, Ours: "(deleted)", Theirs: "(moved)", Line: 1})
		} else if tp == "" && op != bp {
			r.Data = o
			res.Conflicts = append(res.Conflicts, Conflict{Path: op, Kind: MovedKept, Ours: "(moved)", Theirs: "(deleted)", Line: 1})
		}
	}
	if r.Data != nil {
		res.Files[target] = r.Data
	}
	return nil
}

// follow gives the losing side's copy of a record the winning side's values
// of the keys its folder decides, so that the merge does not report them.
func follow(p string, loser, winner []byte, kind string) ([]byte, error) {
	ks := folderKeys(kind)
	if len(ks) == 0 {
		return loser, nil
	}
	w, err := readSide(winner)
	if err != nil {
		return nil, err
	}
	d, err := frontmatter.Parse(loser)
	if err != nil {
		return nil, &SideError{Path: p, Err: err}
	}
	for _, key := range ks {
		v, ok := w.vals[key]
		if !ok {
			continue
		}
		var val any
		if err := v.Decode(&val); err != nil {
			return nil, err
		}
		if err := d.Set(key, val); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	if bytes.Equal(d.Bytes(), loser) {
		return loser, nil
	}
	return d.Bytes(), nil
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
