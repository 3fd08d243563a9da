package mdstore

import (
	"fmt"
	"math"
	"os"
	"path"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/mdstore/layout"
)

// Validations are the validation states of a bullet (SPEC §2.2).
var Validations = []string{"none", "required", "approved", "rejected"}

// Bullet is one playbook bullet (SPEC §2.2). Doc keeps the file's bytes, so
// that Encode changes only the keys whose values changed since Read.
type Bullet struct {
	ID                string    `yaml:"id" json:"id"`
	Category          string    `yaml:"category" json:"category"`
	Confidence        float64   `yaml:"confidence" json:"confidence"`
	Priority          int       `yaml:"priority" json:"priority"`
	HelpfulCount      int       `yaml:"helpful_count" json:"helpful_count"`
	HarmfulCount      int       `yaml:"harmful_count" json:"harmful_count"`
	UsageCount        int       `yaml:"usage_count" json:"usage_count"`
	Version           int       `yaml:"version" json:"version"`
	ParentBulletID    string    `yaml:"parent_bullet_id" json:"parent_bullet_id,omitempty"`
	MergedFrom        []string  `yaml:"merged_from" json:"merged_from,omitempty"`
	Tags              []string  `yaml:"tags" json:"tags,omitempty"`
	IsActive          bool      `yaml:"is_active" json:"is_active"`
	CreatedAt         time.Time `yaml:"created_at" json:"created_at"`
	UpdatedAt         time.Time `yaml:"updated_at" json:"updated_at"`
	LastUsedAt        time.Time `yaml:"last_used_at" json:"last_used_at,omitzero"`
	ArchivedAt        time.Time `yaml:"archived_at" json:"archived_at,omitzero"`
	Validation        string    `yaml:"validation" json:"validation"`
	SourceReflections []string  `yaml:"source_reflections" json:"source_reflections,omitempty"`
	// OriginalID is the id a bullet had in the playbook it was imported from.
	OriginalID string `yaml:"original_id" json:"original_id,omitempty"`
	// Section is the heading it was imported under (kept for export).
	Section string `yaml:"section" json:"section,omitempty"`

	// Content is the body, without surrounding blank space.
	Content string `yaml:"-" json:"content"`
	// Path is the store-relative file; the folder decides IsActive and Category.
	Path string                `yaml:"-" json:"path"`
	Doc  *frontmatter.Document `yaml:"-" json:"-"`
	orig *Bullet
}

// bulletKeys are the frontmatter keys in the order new files get them, with
// the field each one holds.
var bulletKeys = []string{
	"id", "category", "confidence", "priority", "helpful_count", "harmful_count", "usage_count",
	"version", "parent_bullet_id", "merged_from", "tags", "is_active", "created_at", "updated_at",
	"last_used_at", "archived_at", "validation", "source_reflections", "original_id", "section",
}

// FieldsOnly is a copy of the bullet's frontmatter fields and path: no
// content, no document, nothing to edit (what the bullet index keeps).
func (b *Bullet) FieldsOnly() *Bullet {
	c := *b
	c.Content, c.Doc, c.orig = "", nil, nil
	return &c
}

// BulletPath is where a bullet lives: context/bullets/<category>/<id>.md when
// active, context/archive/<category>/<id>.md when archived.
func BulletPath(active bool, category, id string) string {
	if active {
		return "context/bullets/" + category + "/" + id + ".md"
	}
	return "context/archive/" + category + "/" + id + ".md"
}

// ReadBullet reads and checks one bullet file (store-relative path).
func (s *Store) ReadBullet(rel string) (*Bullet, error) {
	s.noteBulletRead(rel)
	d, err := s.ReadDocument(rel)
	if err != nil {
		return nil, err
	}
	return DecodeBullet(rel, d)
}

// DecodeBullet decodes and checks a parsed bullet document found at rel.
func DecodeBullet(rel string, d *frontmatter.Document) (*Bullet, error) {
	if !d.HasFrontmatter() {
		return nil, &InvalidFile{Path: rel, Line: 1, Msg: "no frontmatter (a bullet starts with ---, its fields, ---)"}
	}
	b := &Bullet{Path: rel, Doc: d}
	if err := d.Decode(b); err != nil {
		return nil, InvalidFileOf(rel, err)
	}
	b.Content = strings.TrimSpace(string(d.Body()))
	if err := b.check(); err != nil {
		return nil, err
	}
	snap := *b
	snap.MergedFrom = append([]string(nil), b.MergedFrom...)
	snap.Tags = append([]string(nil), b.Tags...)
	snap.SourceReflections = append([]string(nil), b.SourceReflections...)
	b.orig = &snap
	return b, nil
}

// check applies SPEC §2.2's types and ranges and fills defaults.
func (b *Bullet) check() error {
	bad := func(key, format string, a ...any) error {
		return &InvalidFile{Path: b.Path, Line: b.Doc.Line(key), Msg: key + ": " + fmt.Sprintf(format, a...)}
	}
	if err := checkFileID(&b.ID, b.Path, bad); err != nil {
		return err
	}
	folder := path.Base(path.Dir(b.Path))
	if b.Category == "" {
		b.Category = folder
	}
	if b.Category != folder {
		return bad("category", "%q does not match its folder %q", b.Category, folder)
	}
	if b.Confidence < 0 || b.Confidence > 1 || math.IsNaN(b.Confidence) {
		return bad("confidence", "%v is out of range [0,1]", b.Confidence)
	}
	if b.Priority == 0 && b.Doc.Line("priority") == 0 {
		b.Priority = 5
	}
	if b.Priority < 1 || b.Priority > 10 {
		return bad("priority", "%d is out of range 1–10", b.Priority)
	}
	for k, v := range map[string]int{"helpful_count": b.HelpfulCount, "harmful_count": b.HarmfulCount, "usage_count": b.UsageCount} {
		if v < 0 {
			return bad(k, "%d is negative", v)
		}
	}
	if b.Version == 0 {
		b.Version = 1
	}
	if b.Validation == "" {
		b.Validation = "none"
	}
	if !oneOf(b.Validation, Validations) {
		return bad("validation", "%q is not none, required, approved or rejected", b.Validation)
	}
	b.IsActive = layout.ActiveBullet(b.Path)
	return nil
}

// Clone returns a deep copy that shares the parsed document's bytes (Encode
// copies before editing).
func (b *Bullet) Clone() *Bullet {
	c := *b
	c.MergedFrom = append([]string(nil), b.MergedFrom...)
	c.Tags = append([]string(nil), b.Tags...)
	c.SourceReflections = append([]string(nil), b.SourceReflections...)
	return &c
}

// fieldValues returns each key's current value, for encoding.
func (b *Bullet) fieldValues() map[string]any {
	return map[string]any{
		"id": b.ID, "category": b.Category, "confidence": b.Confidence, "priority": b.Priority,
		"helpful_count": b.HelpfulCount, "harmful_count": b.HarmfulCount, "usage_count": b.UsageCount,
		"version": b.Version, "parent_bullet_id": b.ParentBulletID, "merged_from": b.MergedFrom,
		"tags": b.Tags, "is_active": b.IsActive, "created_at": b.CreatedAt, "updated_at": b.UpdatedAt,
		"last_used_at": b.LastUsedAt, "archived_at": b.ArchivedAt, "validation": b.Validation,
		"source_reflections": b.SourceReflections, "original_id": b.OriginalID, "section": b.Section,
	}
}

// isZero reports whether an optional value may be left out of a file.
func isZero(key string, v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case []string:
		return len(x) == 0
	case time.Time:
		return x.IsZero()
	}
	return false
}

// Encode renders the bullet. A bullet read from a file keeps that file's
// bytes except for the keys whose values changed (and the body, when the
// content changed); a new bullet gets every key in SPEC order.
func (b *Bullet) Encode() ([]byte, error) {
	vals := b.fieldValues()
	for _, k := range []string{"created_at", "updated_at", "last_used_at", "archived_at"} {
		if t := vals[k].(time.Time); !t.IsZero() {
			vals[k] = t.UTC()
		}
	}
	if b.Doc == nil || b.orig == nil {
		var kv []frontmatter.KV
		for _, k := range bulletKeys {
			if v := vals[k]; !isZero(k, v) {
				kv = append(kv, frontmatter.KV{Key: k, Value: v})
			}
		}
		d, err := frontmatter.New([]byte("\n"+b.Content+"\n"), kv...)
		if err != nil {
			return nil, err
		}
		return d.Bytes(), nil
	}
	d, err := frontmatter.Parse(b.Doc.Bytes())
	if err != nil {
		return nil, err
	}
	old := b.orig.fieldValues()
	for _, k := range bulletKeys {
		v := vals[k]
		if reflect.DeepEqual(v, old[k]) || (isZero(k, v) && isZero(k, old[k])) {
			continue
		}
		if isZero(k, v) {
			err = d.Delete(k)
		} else {
			err = d.Set(k, v)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.Path, err)
		}
	}
	if b.Content != b.orig.Content {
		d.SetBody([]byte("\n" + b.Content + "\n"))
	}
	return d.Bytes(), nil
}

// BulletList is every bullet of the store plus the files that could not be read.
type BulletList struct {
	Active   []*Bullet
	Archived []*Bullet
	Invalid  []*InvalidFile
	// SharedIDs are the ids that more than one file has: those files are
	// in Invalid, none of them in Active or Archived; Sharing holds them as
	// read (a curation holds a lesson that repeats one of them).
	SharedIDs []string
	Sharing   []*Bullet
}

// All returns active then archived bullets.
func (l *BulletList) All() []*Bullet {
	return append(append([]*Bullet(nil), l.Active...), l.Archived...)
}

// ListBullets reads every bullet, active and (when archived is set)
// archived, sorted by id. Unreadable files are reported, never touched, and
// so are the files of an id that another file listed also has (UniqueIDs).
func (s *Store) ListBullets(archived bool) (*BulletList, error) {
	res := &BulletList{}
	roots := []string{"context/bullets"}
	if archived {
		roots = append(roots, "context/archive")
	}
	for _, root := range roots {
		cats, err := Subfolders(s.Path(root))
		if err != nil {
			return nil, err
		}
		for _, cat := range cats {
			dir := root + "/" + cat
			names, err := RecordNames(s.Path(dir))
			if err != nil {
				return nil, err
			}
			for _, n := range names {
				rel := dir + "/" + n
				b, err := s.ReadBullet(rel)
				if err != nil {
					res.Invalid = append(res.Invalid, InvalidFileOf(rel, err))
					continue
				}
				if b.IsActive {
					res.Active = append(res.Active, b)
				} else {
					res.Archived = append(res.Archived, b)
				}
			}
		}
	}
	all := append(res.Active, res.Archived...)
	slices.SortStableFunc(all, func(a, b *Bullet) int { return strings.Compare(a.ID, b.ID) }) // in listing order within an id
	read := all
	all, sharing, shared := UniqueIDs(all, func(b *Bullet) string { return b.ID }, func(b *Bullet) string { return b.Path })
	res.Invalid, res.SharedIDs = append(res.Invalid, sharing...), shared
	for _, b := range read {
		if len(shared) > 0 && slices.Contains(shared, b.ID) {
			res.Sharing = append(res.Sharing, b)
		}
	}
	res.Active, res.Archived = nil, nil
	for _, b := range all {
		if b.IsActive {
			res.Active = append(res.Active, b)
		} else {
			res.Archived = append(res.Archived, b)
		}
	}
	return res, nil
}

// SortBullets orders bullets by id.
func SortBullets(bs []*Bullet) {
	slices.SortFunc(bs, func(a, b *Bullet) int { return strings.Compare(a.ID, b.ID) })
}

// Subfolders lists the folders of dir, sorted; a missing dir is empty.
func Subfolders(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// FindBullet finds a bullet by id, active or archived.
func (s *Store) FindBullet(id string) (*Bullet, error) {
	if err := safepath.CheckID(id); err != nil {
		return nil, err
	}
	rel, err := s.bulletFile(id)
	if err != nil {
		return nil, err
	}
	if rel == "" {
		return nil, fmt.Errorf("%w: bullet %s", ErrNotFound, id)
	}
	return s.ReadBullet(rel)
}

// ExistingBulletFile is the store path of the bullet with this id,
// active or archived, whether or not it parses ("" when there is none,
// or the id cannot name a file).
func (s *Store) ExistingBulletFile(id string) string {
	if safepath.CheckID(id) != nil {
		return ""
	}
	rel, _ := s.bulletFile(id)
	return rel
}

// bulletFile is the first file named after the bullet in a category
// folder of the active bullets, then of the archive ("" none).
func (s *Store) bulletFile(id string) (string, error) {
	for _, root := range []string{"context/bullets", "context/archive"} {
		cats, err := Subfolders(s.Path(root))
		if err != nil {
			return "", err
		}
		for _, cat := range cats {
			rel := root + "/" + cat + "/" + id + ".md"
			if _, err := os.Lstat(s.Path(rel)); err == nil {
				return rel, nil
			}
		}
	}
	return "", nil
}
