package merge

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// requiredKeys are the keys of a record kind that a version may not lack
// while every other version has them: without them it is no record.
func requiredKeys(kind string) []string {
	if kind == "memory" {
		return []string{"id", "type", "ingestion_time"}
	}
	return []string{"id"}
}

// checkRecords refuses a version of a record file (a memory, bullet or
// reflection) that is not a record: an empty file, a markdown file without
// frontmatter, or one that lacks a required key or the body that every
// other version has. Such a version is a truncated or overwritten file;
// merging it would turn the record into a husk. An absent side (nil) is a
// deletion, not a version.
func checkRecords(p string, rd *reads, base, ours, theirs []byte) error {
	r, ok := recordOf(p)
	if !ok {
		return nil
	}
	type version struct {
		name string
		data []byte
		keys map[string]bool
		body bool
	}
	var vs []*version
	for _, s := range []struct {
		name string
		data []byte
	}{{"base", base}, {"ours", ours}, {"theirs", theirs}} {
		if s.data == nil {
			continue
		}
		v := &version{name: s.name, data: s.data, keys: map[string]bool{}}
		if len(bytes.TrimSpace(s.data)) == 0 {
			return &SideError{Path: p, Side: s.name, Err: errors.New("not a record: the file is empty")}
		}
		if r.kind == "reflection.json" {
			if id := recordID(p, rd, s.data); id != "" {
				v.keys["id"] = true
			}
		} else {
			sd, err := rd.side(s.data)
			if err != nil {
				return &SideError{Path: p, Side: s.name, Err: err}
			}
			if !sd.doc.HasFrontmatter() {
				return &SideError{Path: p, Side: s.name, Err: errors.New("not a record: it has no frontmatter (--- lines with its keys)")}
			}
			for _, k := range sd.keys {
				v.keys[k] = true
			}
			v.body = len(bytes.TrimSpace(sd.doc.Body())) > 0
		}
		vs = append(vs, v)
	}
	if len(vs) < 2 {
		return nil
	}
	for _, v := range vs {
		var missing []string
		everyOther := func(has func(*version) bool) bool {
			for _, o := range vs {
				if o != v && !has(o) {
					return false
				}
			}
			return true
		}
		for _, k := range requiredKeys(r.kind) {
			if !v.keys[k] && everyOther(func(o *version) bool { return o.keys[k] }) {
				missing = append(missing, k)
			}
		}
		if r.kind != "reflection.json" && !v.body && everyOther(func(o *version) bool { return o.body }) {
			missing = append(missing, "the body")
		}
		if len(missing) > 0 {
			return &SideError{Path: p, Side: v.name, Err: fmt.Errorf("not a record: it lacks %s, which the other versions have", joinAnd(missing))}
		}
	}
	return nil
}

// joinAnd joins words as "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
