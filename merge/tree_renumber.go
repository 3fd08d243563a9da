package merge

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/curator-dev/curator/frontmatter"
)

// Side names one side of a merge.
type Side string

// The two sides of a merge.
const (
	Ours   Side = "ours"
	Theirs Side = "theirs"
)

// Renumber is a record that one side (Side: the side that had not
// published it) created under an id the other side also created with other
// content: it is stored under New at Path, and that side's references to
// Old are rewritten to New.
type Renumber struct {
	Old  string `json:"old"`
	New  string `json:"new"`
	Path string `json:"path"`
	Side Side   `json:"side"`
}

// refKeys are the frontmatter keys whose values name other records.
var refKeys = []string{"merged_from", "parent_bullet_id", "helpful_bullets", "harmful_bullets", "source_reflections"}

var bulletIDRE = regexp.MustCompile(`^(.+)-(\d+)(?:-v(\d+))?$`)

// renumber gives the colliding new records of side move fresh ids (the
// records of side keep keep theirs) and returns move's files with the
// records moved to their new paths and every reference in a file move
// changed rewritten.
func renumber(base, keep, move map[string][]byte, bi, ki, mi recordIndex, known func() ([]string, error), side Side) (map[string][]byte, []Renumber, error) {
	var keys []string
	for k, mp := range mi.paths {
		kp, both := ki.paths[k]
		if _, inBase := bi.paths[k]; both && !inBase && !bytes.Equal(keep[kp], move[mp]) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return move, nil, nil
	}
	sort.Strings(keys)
	taken := map[string]bool{}
	for _, ix := range []recordIndex{bi, ki, mi} {
		for _, r := range ix.ids {
			taken[r.id] = true
		}
	}
	sides := []map[string][]byte{base, keep, move}
	if known != nil {
		paths, err := known()
		if err != nil {
			return nil, nil, err
		}
		names := make(map[string][]byte, len(paths))
		for _, p := range paths {
			names[p] = nil
			if r, ok := recordOf(p); ok {
				taken[r.id] = true
			}
		}
		sides = append(sides, names)
	}
	var out []Renumber
	renames := map[string]string{}
	for _, k := range keys {
		r := mi.ids[k]
		n := nextFreeID(r, sides, taken)
		taken[n] = true
		renames[r.id] = n
		out = append(out, Renumber{Old: r.id, New: n, Path: withID(mi.paths[k], n), Side: side})
	}
	moved := make(map[string][]byte, len(move))
	for p, d := range move {
		moved[p] = d
	}
	for i, k := range keys {
		delete(moved, mi.paths[k])
		moved[out[i].Path] = move[mi.paths[k]]
		if strings.HasSuffix(out[i].Path, ".md") {
			d, err := setKey(out[i].Path, moved[out[i].Path], "id", out[i].New, side)
			if err != nil {
				return nil, nil, err
			}
			moved[out[i].Path] = d
		}
	}
	for p, d := range moved {
		if b, ok := base[p]; ok && bytes.Equal(b, d) {
			continue // the side did not change it: it cannot name the side's new ids
		}
		nd, err := rewriteRefs(p, d, renames, side)
		if err != nil {
			return nil, nil, err
		}
		moved[p] = nd
	}
	return moved, out, nil
}

// nextFreeID chooses the id a colliding record of theirs gets.
//
// A bullet id PREFIX-NNN becomes PREFIX-MMM with MMM one more than the
// highest number of that prefix named anywhere on the three sides (file
// names and contents, so merge logs and references count) or already given
// in this merge, like the store's allocator. A version id PREFIX-NNN-vK
// becomes PREFIX-NNN-vJ with J one more than the highest version of that base
// so named. Any other id (memories, reflections) gets the first suffix -2,
// -3, … that no side names.
func nextFreeID(r recordPath, sides []map[string][]byte, taken map[string]bool) string {
	if m := bulletIDRE.FindStringSubmatch(r.id); r.kind == "bullet" && m != nil {
		if m[3] == "" {
			re := regexp.MustCompile(`(?:^|[^A-Za-z0-9_])` + regexp.QuoteMeta(m[1]) + `-(\d+)`)
			hi := highest(re, sides, taken)
			return fmt.Sprintf("%s-%03d", m[1], hi+1)
		}
		stem := strings.TrimSuffix(r.id, "-v"+m[3])
		re := regexp.MustCompile(`(?:^|[^A-Za-z0-9_])` + regexp.QuoteMeta(stem) + `-v(\d+)`)
		return fmt.Sprintf("%s-v%d", stem, highest(re, sides, taken)+1)
	}
	for i := 2; ; i++ {
		c := r.id + "-" + strconv.Itoa(i)
		if !taken[c] && !named(c, sides) {
			return c
		}
	}
}

// highest is the largest number re's first group matches in any path or
// file of the sides, or in the ids already taken.
func highest(re *regexp.Regexp, sides []map[string][]byte, taken map[string]bool) int {
	hi := 0
	see := func(b []byte) {
		for _, m := range re.FindAllSubmatch(b, -1) {
			if n, err := strconv.Atoi(string(m[1])); err == nil && n > hi {
				hi = n
			}
		}
	}
	for _, s := range sides {
		for p, d := range s {
			see([]byte(p))
			see(d)
		}
	}
	for id := range taken {
		see([]byte(id))
	}
	return hi
}

// named reports whether any path or file of the sides contains id.
func named(id string, sides []map[string][]byte) bool {
	for _, s := range sides {
		for p, d := range s {
			if strings.Contains(p, id) || bytes.Contains(d, []byte(id)) {
				return true
			}
		}
	}
	return false
}

// rewriteRefs renames ids in one of theirs' files: in a markdown record the
// values of refKeys; in a JSON or JSON-lines file under context/ (merge
// logs, metrics, JSON reflections) every string that is exactly an old id.
func rewriteRefs(p string, data []byte, renames map[string]string, side Side) ([]byte, error) {
	switch {
	case strings.HasSuffix(p, ".md"):
		return rewriteFrontmatter(p, data, renames, side)
	case strings.HasPrefix(p, "context/") && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl")):
		olds := make([]string, 0, len(renames))
		for o := range renames {
			olds = append(olds, o)
		}
		sort.Strings(olds)
		for _, o := range olds {
			data = bytes.ReplaceAll(data, []byte(strconv.Quote(o)), []byte(strconv.Quote(renames[o])))
		}
	}
	return data, nil
}

func rewriteFrontmatter(p string, data []byte, renames map[string]string, side Side) ([]byte, error) {
	d, err := frontmatter.Parse(data)
	if err != nil {
		return nil, &SideError{Path: p, Side: string(side), Err: err}
	}
	var fields map[string]any
	if err := d.Decode(&fields); err != nil {
		return nil, &SideError{Path: p, Side: string(side), Err: err}
	}
	changed := false
	for _, k := range refKeys {
		switch v := fields[k].(type) {
		case string:
			if n, ok := renames[v]; ok {
				if err := d.Set(k, n); err != nil {
					return nil, err
				}
				changed = true
			}
		case []any:
			hit := false
			for i, e := range v {
				if s, ok := e.(string); ok && renames[s] != "" {
					v[i], hit = renames[s], true
				}
			}
			if hit {
				if err := d.Set(k, v); err != nil {
					return nil, err
				}
				changed = true
			}
		}
	}
	if !changed {
		return data, nil
	}
	return d.Bytes(), nil
}

// setKey gives one top-level frontmatter key a value.
func setKey(p string, data []byte, key string, value any, side Side) ([]byte, error) {
	d, err := frontmatter.Parse(data)
	if err != nil {
		return nil, &SideError{Path: p, Side: string(side), Err: err}
	}
	if err := d.Set(key, value); err != nil {
		return nil, err
	}
	return d.Bytes(), nil
}

// Rename applies renumberings made earlier (by an earlier step of the same
// rebase) to one side's files: each record that still has an old id moves
// to its new id's path with its id key set, and references to the old ids
// are rewritten, so the side pairs with the records as they are now.
func Rename(files map[string][]byte, renames []Renumber) (map[string][]byte, error) {
	if len(renames) == 0 {
		return files, nil
	}
	byKey, ids := map[string]string{}, map[string]string{}
	for _, r := range renames {
		if rp, ok := recordOf(r.Path); ok {
			byKey[recordPath{kind: rp.kind, id: r.Old}.key()] = r.New
			ids[r.Old] = r.New
		}
	}
	out := make(map[string][]byte, len(files))
	for _, p := range sortedPaths(files) {
		data := files[p]
		if rp, ok := recordOf(p); ok && byKey[rp.key()] != "" {
			n := byKey[rp.key()]
			np := withID(p, n)
			if strings.HasSuffix(np, ".md") {
				d, err := setKey(np, data, "id", n, Theirs)
				if err != nil {
					return nil, err
				}
				data = d
			}
			p = np
		}
		d, err := rewriteRefs(p, data, ids, Theirs)
		if err != nil {
			return nil, err
		}
		out[p] = d
	}
	return out, nil
}
