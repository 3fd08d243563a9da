package merge

import (
	"path"
	"sort"
	"strings"

	"github.com/curator-dev/curator/mdstore/layout"
)

// recordPath is what a store path says about the record it holds: its kind
// (memory, bullet, markdown or JSON reflection), its id (the file name) and
// the rank of its folder in the precedence that settles moves.
type recordPath struct {
	kind, id string
	rank     int
}

// key pairs versions of one record across folders and sides.
func (r recordPath) key() string { return r.kind + "\x00" + r.id }

// recordOf reads a store-relative path as a record location:
//
//	memory/inbox/<id>.md               memory, rank 1
//	memory/confirmed/<type>/<id>.md    memory, rank 2
//	memory/trash/<id>.md               memory, rank 3
//	context/bullets/<category>/<id>.md bullet, rank 1
//	context/archive/<category>/<id>.md bullet, rank 2
//	context/reflections/pending/<id>.md|.json reflection, rank 1
//	context/reflections/merged/<id>.md|.json  reflection, rank 2
func recordOf(p string) (recordPath, bool) {
	name := path.Base(p)
	ext := path.Ext(name)
	id := strings.TrimSuffix(name, ext)
	if id == "" || strings.HasPrefix(name, ".") {
		return recordPath{}, false
	}
	pl := layout.Of(p)
	f := pl.Folder
	if f.Status == "" || !pl.Exact() || layout.KindOf(p) == layout.None {
		return recordPath{}, false
	}
	kind := string(f.Kind)
	if f.Kind == layout.Reflection {
		kind += ext
	}
	return recordPath{kind, id, f.Rank}, true
}

// folderKeys are the frontmatter keys of a record kind that its folder
// decides; when the two sides moved a record to different folders, the side
// whose folder loses takes the winner's values of these keys before the
// contents are merged.
func folderKeys(kind string) []string {
	switch kind {
	case "memory":
		return []string{"status", "type"}
	case "bullet":
		return []string{"is_active", "category"}
	case "reflection.md":
		return []string{"curator_status"}
	}
	return nil
}

// recordIndex maps each record key of one side to its path. When a side
// holds one id in two folders (a store in a broken state), the first path in
// sorted order is the record and the others are merged as plain files.
type recordIndex struct {
	paths map[string]string
	ids   map[string]recordPath
}

func indexRecords(files map[string][]byte) recordIndex {
	ix := recordIndex{paths: map[string]string{}, ids: map[string]recordPath{}}
	for _, p := range sortedPaths(files) {
		r, ok := recordOf(p)
		if !ok {
			continue
		}
		if _, dup := ix.paths[r.key()]; dup {
			continue
		}
		ix.paths[r.key()] = p
		ix.ids[r.key()] = r
	}
	return ix
}

// isRecord reports whether p is the record path of its key on this side.
func (ix recordIndex) isRecord(p string) bool {
	r, ok := recordOf(p)
	return ok && ix.paths[r.key()] == p
}

func sortedPaths(files map[string][]byte) []string {
	out := make([]string, 0, len(files))
	for p := range files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// withID is the path of the same folder holding a record of another id.
func withID(p, id string) string {
	return path.Dir(p) + "/" + id + path.Ext(p)
}

// RecordKey is the key that pairs the versions of one record across its
// folders (kind and id), and whether the store path p holds a record.
func RecordKey(p string) (string, bool) {
	r, ok := recordOf(p)
	if !ok {
		return "", false
	}
	return r.key(), true
}
