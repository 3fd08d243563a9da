package merge

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// IdentityError is two versions of one path that hold two different records:
// git's rename detection paired a record deleted on one side with a new one
// of similar content added there. Sides names where each id was read
// ("base", "ours", "theirs" or "file name").
type IdentityError struct {
	Path  string
	Sides [2]string
	IDs   [2]string
}

func (e *IdentityError) Error() string {
	return fmt.Sprintf("%s: %s holds the record %s, %s the record %s: two records, not two versions of one",
		e.Path, e.Sides[0], e.IDs[0], e.Sides[1], e.IDs[1])
}

// checkIdentity refuses versions of a record file whose ids differ from each
// other or, for memories and bullets (whose file is named by the id), from
// the file name. A version without an id takes the file's.
func checkIdentity(p string, rd *reads, base, ours, theirs []byte) error {
	r, ok := recordOf(p)
	if !ok {
		return nil
	}
	type version struct{ side, id string }
	var ids []version
	// ours and theirs first, so that the two sides that disagree are named
	// before the base.
	for _, s := range []struct {
		name string
		data []byte
	}{{"ours", ours}, {"theirs", theirs}, {"base", base}} {
		if s.data == nil {
			continue
		}
		if id := recordID(p, rd, s.data); id != "" {
			ids = append(ids, version{s.name, id})
		}
	}
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			if ids[i].id != ids[j].id {
				return &IdentityError{Path: p, Sides: [2]string{ids[i].side, ids[j].side}, IDs: [2]string{ids[i].id, ids[j].id}}
			}
		}
	}
	if len(ids) > 0 && (r.kind == "memory" || r.kind == "bullet") && ids[0].id != r.id {
		return &IdentityError{Path: p, Sides: [2]string{"file name", ids[0].side}, IDs: [2]string{r.id, ids[0].id}}
	}
	return nil
}

// recordID is the id a version of a record file holds ("" when none): the
// frontmatter's id, or a JSON reflection's "id" field.
func recordID(p string, rd *reads, data []byte) string {
	if strings.HasSuffix(path.Base(p), ".json") {
		var v struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(data, &v) != nil || v.ID == nil {
			return ""
		}
		return fmt.Sprint(v.ID)
	}
	s, err := rd.side(data)
	if err != nil {
		return ""
	}
	// The mapping decoded as a whole, as a YAML reader would read the
	// record: an id given through a merge key (<<) or an alias counts.
	var v struct {
		ID any `yaml:"id"`
	}
	if s.root.Decode(&v) != nil || v.ID == nil {
		return ""
	}
	return fmt.Sprint(v.ID)
}
