package mdstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/internal/secrets"
)

// ReflectionStatuses are the statuses of a reflection (SPEC §2.3).
var ReflectionStatuses = []string{"pending", "merged", "rejected"}

// Lesson is one lesson of a reflection.
type Lesson struct {
	Content    string    `yaml:"content" json:"content"`
	Category   string    `yaml:"category" json:"category,omitempty"`
	Confidence *float64  `yaml:"confidence" json:"confidence,omitempty"`
	Tags       []string  `yaml:"tags" json:"tags,omitempty"`
	Priority   *Priority `yaml:"priority" json:"priority,omitempty"`
}

// DefaultLessonConfidence is a lesson's confidence when it gives none.
const DefaultLessonConfidence = 0.5

// Conf is the lesson's confidence, DefaultLessonConfidence when absent.
func (l Lesson) Conf() float64 {
	if l.Confidence == nil {
		return DefaultLessonConfidence
	}
	return *l.Confidence
}

// Prio is the lesson's priority, 5 when absent.
func (l Lesson) Prio() int {
	if l.Priority == nil {
		return 5
	}
	return int(*l.Priority)
}

// Reflection is what an agent learned from a task (SPEC §2.3): markdown
// with frontmatter, or the same fields as JSON.
type Reflection struct {
	ID             string    `yaml:"id" json:"id"`
	CuratorStatus  string    `yaml:"curator_status" json:"curator_status"`
	CreatedAt      time.Time `yaml:"created_at" json:"created_at"`
	Agent          string    `yaml:"agent" json:"agent,omitempty"`
	Task           string    `yaml:"task" json:"task,omitempty"`
	Lessons        []Lesson  `yaml:"lessons" json:"lessons"`
	HelpfulBullets []string  `yaml:"helpful_bullets" json:"helpful_bullets,omitempty"`
	HarmfulBullets []string  `yaml:"harmful_bullets" json:"harmful_bullets,omitempty"`
	// CuratedLessons lists the lessons (1-based) that a run limited by
	// --category already curated; the reflection stays pending until all are.
	CuratedLessons []int `yaml:"curated_lessons" json:"curated_lessons,omitempty"`
	// Body is the free text (markdown) or the "body" field (JSON).
	Body string `yaml:"-" json:"body,omitempty"`

	// Path is the store-relative file, "" for a reflection not yet stored.
	Path string `yaml:"-" json:"path,omitempty"`
	// Unnamed tells that the record carries no id: it was taken from the
	// file name.
	Unnamed bool `yaml:"-" json:"-"`
	// JSON tells the file's format; Raw is its bytes (kept for moves).
	JSON bool   `yaml:"-" json:"-"`
	Raw  []byte `yaml:"-" json:"-"`
	doc  *frontmatter.Document
}

// ParseReflection parses and checks a reflection file's bytes. name is used
// in errors (and for the format: ".json" means JSON; otherwise JSON is
// recognised by a leading "{").
func ParseReflection(name string, data []byte) (*Reflection, error) {
	if len(data) > MaxRecordSize {
		return nil, &InvalidFile{Path: name, Msg: fmt.Sprintf("file is %d bytes, over the 1 MiB limit", len(data))}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, &InvalidFile{Path: name, Msg: "binary file (contains NUL bytes)"}
	}
	if !utf8.Valid(data) {
		return nil, &InvalidFile{Path: name, Line: invalidUTF8Line(data), Msg: "invalid UTF-8"}
	}
	r := &Reflection{Path: name, Raw: data}
	lineOf := func(string) int { return 0 }
	if strings.HasSuffix(name, ".json") || bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		r.JSON = true
		if err := checkJSONShape(name, data); err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(r); err != nil {
			return nil, jsonError(name, data, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, &InvalidFile{Path: name, Msg: "trailing data after the JSON object"}
		}
		r.Path, r.Raw, r.JSON = name, data, true
	} else {
		d, err := frontmatter.Parse(data)
		if err != nil {
			return nil, InvalidFileOf(name, err)
		}
		if !d.HasFrontmatter() {
			return nil, &InvalidFile{Path: name, Msg: "no frontmatter (a reflection starts with ---, its fields, ---)"}
		}
		if err := d.Decode(r); err != nil {
			return nil, InvalidFileOf(name, err)
		}
		r.doc, r.Body = d, string(d.Body())
		lineOf = d.Line
	}
	if err := r.check(lineOf); err != nil {
		return nil, err
	}
	return r, nil
}

// jsonError names the line and the field of a JSON decoding error.
func jsonError(name string, data []byte, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	line := func(off int64) int { return lineAt(data, int(min(off, int64(len(data))))) }
	switch {
	case errors.As(err, &te):
		return &InvalidFile{Path: name, Line: line(te.Offset), Msg: fmt.Sprintf("%s: want %s, got JSON %s", te.Field, te.Type, te.Value)}
	case errors.As(err, &se):
		return &InvalidFile{Path: name, Line: line(se.Offset), Msg: "invalid JSON: " + se.Error()}
	}
	return &InvalidFile{Path: name, Msg: err.Error()}
}

// check applies SPEC §2.3: a safe id, a known status, lessons with content,
// confidences in [0,1], priorities 1–10.
func (r *Reflection) check(lineOf func(string) int) error {
	bad := func(key, format string, a ...any) error {
		top := key
		if i := strings.IndexAny(top, "[."); i >= 0 {
			top = top[:i]
		}
		return &InvalidFile{Path: r.Path, Line: lineOf(top), Msg: key + ": " + fmt.Sprintf(format, a...)}
	}
	if r.ID == "" {
		r.Unnamed = true
		r.ID = strings.TrimSuffix(strings.TrimSuffix(path.Base(r.Path), ".json"), ".md")
	}
	if err := safepath.CheckID(r.ID); err != nil {
		return bad("id", "%v", err)
	}
	if r.CuratorStatus == "" {
		r.CuratorStatus = "pending"
	}
	if !oneOf(r.CuratorStatus, ReflectionStatuses) {
		return bad("curator_status", "%q is not pending, merged or rejected", r.CuratorStatus)
	}
	if len(r.Lessons) == 0 && len(r.HelpfulBullets) == 0 && len(r.HarmfulBullets) == 0 {
		return bad("lessons", "missing: a reflection needs at least one lesson (or helpful/harmful bullets)")
	}
	for i, l := range r.Lessons {
		k := fmt.Sprintf("lessons[%d]", i)
		if strings.TrimSpace(l.Content) == "" {
			return bad(k+".content", "missing or empty")
		}
		if c := l.Confidence; c != nil && (*c < 0 || *c > 1 || math.IsNaN(*c)) {
			return bad(k+".confidence", "%v is out of range [0,1]", *c)
		}
		if p := l.Priority; p != nil && (*p < 1 || *p > 10) {
			return bad(k+".priority", "%d is out of range 1–10", *p)
		}
		if l.Category != "" {
			if err := safepath.CheckID(l.Category); err != nil {
				return bad(k+".category", "%v", err)
			}
		}
	}
	for _, ids := range [][]string{r.HelpfulBullets, r.HarmfulBullets} {
		for _, id := range ids {
			if err := safepath.CheckID(id); err != nil {
				return bad("helpful_bullets", "%v", err)
			}
		}
	}
	return nil
}

// ReflectionPath is where a reflection of a status lives.
func ReflectionPath(status, id string, isJSON bool) string {
	ext := ".md"
	if isJSON {
		ext = ".json"
	}
	folder := "pending"
	if status == "merged" || status == "rejected" {
		folder = "merged"
	}
	return "context/reflections/" + folder + "/" + id + ext
}

// ReadReflection reads and checks one reflection file (store-relative path).
func (s *Store) ReadReflection(rel string) (*Reflection, error) {
	data, err := s.readRecordFile(rel)
	if err != nil {
		return nil, err
	}
	r, err := ParseReflection(rel, data)
	if err != nil {
		return nil, err
	}
	stem := strings.TrimSuffix(strings.TrimSuffix(path.Base(rel), ".json"), ".md")
	if r.ID != stem {
		return nil, &InvalidFile{Path: rel, Msg: fmt.Sprintf("id: %q does not match the file name %q", r.ID, path.Base(rel))}
	}
	return r, nil
}

// ReflectionList is the reflections of a folder plus the unreadable files.
type ReflectionList struct {
	Reflections []*Reflection
	Invalid     []*InvalidFile
}

// ListReflections reads the pending (or merged) reflections, ordered by
// (created_at, id).
func (s *Store) ListReflections(status string) (*ReflectionList, error) {
	dir := path.Dir(ReflectionPath(status, "x", false))
	ents, err := os.ReadDir(s.Path(dir))
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	res := &ReflectionList{}
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") {
			continue
		}
		lower := strings.ToLower(n)
		if !strings.HasSuffix(lower, ".md") && !strings.HasSuffix(lower, ".json") {
			continue
		}
		if !strings.HasSuffix(n, ".md") && !strings.HasSuffix(n, ".json") {
			// x.JSON looks like a reflection and is none: said, not passed over
			res.Invalid = append(res.Invalid, &InvalidFile{Path: dir + "/" + n, Msg: "a reflection file ends in .md or .json (lower case)"})
			continue
		}
		r, err := s.ReadReflection(dir + "/" + n) // a folder named *.md is not a regular file: reported
		if err != nil {
			res.Invalid = append(res.Invalid, InvalidFileOf(dir+"/"+n, err))
			continue
		}
		res.Reflections = append(res.Reflections, r)
	}
	sort.Slice(res.Reflections, func(i, j int) bool {
		a, b := res.Reflections[i], res.Reflections[j]
		if !a.CreatedAt.Equal(b.CreatedAt) {
			return a.CreatedAt.Before(b.CreatedAt)
		}
		return a.ID < b.ID
	})
	return res, nil
}

// WithStatus returns the file's bytes with curator_status set, changing only
// that key (frontmatter edit, or an in-place edit of the JSON value).
func (r *Reflection) WithStatus(status string) ([]byte, error) {
	return r.withKey("curator_status", status)
}

// WithCurated returns the file's bytes with curated_lessons set.
func (r *Reflection) WithCurated(lessons []int) ([]byte, error) {
	return r.withKey("curated_lessons", lessons)
}

func (r *Reflection) withKey(key string, v any) ([]byte, error) {
	if !r.JSON {
		d, err := frontmatter.Parse(r.Raw)
		if err != nil {
			return nil, err
		}
		if err := d.Set(key, v); err != nil {
			return nil, err
		}
		return d.Bytes(), nil
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return setJSONTop(r.Raw, key, enc)
}

// setJSONTop sets a top-level key of a JSON object in place: the value's
// bytes are replaced, or the key is added after the "{".
func setJSONTop(data []byte, key string, enc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		if k == key {
			// start is just after the key; skip ':' and blanks to the value.
			i := int(start)
			for i < int(end) && (data[i] == ':' || data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
				i++
			}
			out := append([]byte(nil), data[:i]...)
			out = append(out, enc...)
			return append(out, data[end:]...), nil
		}
	}
	i := bytes.IndexByte(data, '{') + 1
	ins := fmt.Sprintf("\n  %q: %s,", key, enc)
	if bytes.Equal(bytes.TrimSpace(data[i:]), []byte("}")) {
		ins = strings.TrimSuffix(ins, ",") + "\n"
	}
	out := append([]byte(nil), data[:i]...)
	out = append(out, ins...)
	return append(out, data[i:]...), nil
}

// SecretFields are every piece of text a stored reflection would commit:
// its known fields (TextFields), then every value of the file as it
// decodes, fields curator does not know included (source, reasoning, …).
func (r *Reflection) SecretFields() []secrets.Field {
	name := "reflection.md"
	if r.JSON {
		name = "reflection.json"
	}
	return append(r.TextFields(), DecodedFields(name, r.Raw)...)
}

// CheckSecrets returns the first field of the reflection that holds a
// secret by the policy p, or nil.
func (r *Reflection) CheckSecrets(p *secrets.Policy) *secrets.Error {
	return p.Check(r.SecretFields()...)
}
