package mdstore

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/curator-dev/curator/config"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore/layout"
)

// Memory types, statuses and maturities (SPEC §2.1).
var (
	MemoryTypes    = config.MemoryTypes
	MemoryStatuses = []string{"inbox", "confirmed", "trash"}
	Maturities     = []string{"case", "confirmed", "rule"}
	// ImportanceFactors are the factors of the score, in formula order.
	ImportanceFactors = []string{"proximity", "surprisal", "entity_priority", "unambiguity"}
)

// Memory is one memory record. Doc keeps the file's bytes so that an edit
// changes only the keys it sets.
type Memory struct {
	ID                string             `yaml:"id" json:"id"`
	Type              string             `yaml:"type" json:"type"`
	Status            string             `yaml:"status" json:"status"`
	Maturity          string             `yaml:"maturity" json:"maturity,omitempty"`
	Brief             string             `yaml:"brief" json:"brief"`
	Author            string             `yaml:"author" json:"author,omitempty"`
	Tags              []string           `yaml:"tags" json:"tags,omitempty"`
	ContentConfidence *int               `yaml:"content_confidence" json:"content_confidence,omitempty"`
	ImportanceFactors map[string]float64 `yaml:"importance_factors" json:"importance_factors,omitempty"`
	IngestionTime     time.Time          `yaml:"ingestion_time" json:"ingestion_time"`
	Scenario          string             `yaml:"scenario" json:"scenario,omitempty"`
	SourceCases       []string           `yaml:"source_cases" json:"source_cases,omitempty"`
	Observation       map[string]any     `yaml:"observation" json:"observation,omitempty"`
	Trashed           map[string]any     `yaml:"trashed" json:"trashed,omitempty"`

	// Path is the store-relative file path; the folder decides the status.
	Path string                `yaml:"-" json:"path"`
	Doc  *frontmatter.Document `yaml:"-" json:"-"`

	// factors holds the checked importance factors in formula order, so a
	// light listing can drop the map.
	factors [4]float64
}

// Confidence is content_confidence, 3 when absent.
func (m *Memory) Confidence() int {
	if m.ContentConfidence == nil {
		return 3
	}
	return *m.ContentConfidence
}

// Factors are the importance factors: the record's map, or, for a record
// listed Light (whose map was dropped), the four factors of the score (0
// when missing).
func (m *Memory) Factors() map[string]float64 {
	if m.ImportanceFactors != nil || m.Doc != nil {
		return m.ImportanceFactors
	}
	out := make(map[string]float64, len(ImportanceFactors))
	for i, f := range ImportanceFactors {
		out[f] = m.factors[i]
	}
	return out
}

// Factor returns an importance factor, 0 when missing.
func (m *Memory) Factor(name string) float64 {
	if m.ImportanceFactors != nil {
		return m.ImportanceFactors[name]
	}
	for i, f := range ImportanceFactors {
		if f == name {
			return m.factors[i]
		}
	}
	return 0
}

// Body is the memory's content.
func (m *Memory) Body() string {
	if m.Doc == nil { // listed Light: fields only
		return ""
	}
	return string(m.Doc.Body())
}

// MemoryPath is where a memory of a status and type lives.
func MemoryPath(status, typ, id string) string {
	switch status {
	case "confirmed":
		return "memory/confirmed/" + typ + "/" + id + ".md"
	case "trash":
		return "memory/trash/" + id + ".md"
	}
	return "memory/inbox/" + id + ".md"
}

// statusOfPath derives the status from the folder.
func statusOfPath(p string) string { return layout.MemoryStatus(p) }

// ReadMemory reads and checks one memory file (store-relative path).
func (s *Store) ReadMemory(rel string) (*Memory, error) {
	d, err := s.ReadDocument(rel)
	if err != nil {
		return nil, err
	}
	return memoryFromDoc(rel, d)
}

// LoadDocument reads the document of a memory listed with Light, for
// editing. The file was checked when it was listed; the edit checks its
// result.
func (s *Store) LoadDocument(m *Memory) error {
	if m.Doc != nil {
		return nil
	}
	data, err := os.ReadFile(s.Path(m.Path))
	if err != nil {
		return err
	}
	d, err := frontmatter.Split(data)
	if err != nil {
		return InvalidFileOf(m.Path, err)
	}
	m.Doc = d
	return nil
}

// ParseMemory checks a memory's bytes as if they were the file at rel.
func ParseMemory(rel string, data []byte) (*Memory, error) {
	d, err := frontmatter.Parse(data)
	if err != nil {
		return nil, InvalidFileOf(rel, err)
	}
	return memoryFromDoc(rel, d)
}

func memoryFromDoc(rel string, d *frontmatter.Document) (*Memory, error) {
	m := &Memory{Path: rel, Doc: d}
	if err := d.Decode(m); err != nil {
		return nil, InvalidFileOf(rel, err)
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return m, nil
}

// checkFileID fills an empty id from the file name and checks that the id is
// a safe file name that matches it.
func checkFileID(id *string, rel string, bad func(key, format string, a ...any) error) error {
	stem := strings.TrimSuffix(path.Base(rel), ".md")
	if *id == "" {
		*id = stem
	}
	if err := safepath.CheckID(*id); err != nil {
		return bad("id", "%v", err)
	}
	if *id != stem {
		return bad("id", "%q does not match the file name %q", *id, stem+".md")
	}
	return nil
}

// check applies SPEC §2.1's types and ranges; the error names the line.
func (m *Memory) check() error {
	bad := func(key, format string, a ...any) error {
		return &InvalidFile{Path: m.Path, Line: m.Doc.Line(key), Msg: key + ": " + fmt.Sprintf(format, a...)}
	}
	if err := checkFileID(&m.ID, m.Path, bad); err != nil {
		return err
	}
	if m.Type == "" {
		return &InvalidFile{Path: m.Path, Msg: "type: missing (want fact, concept or lesson)"}
	}
	if !oneOf(m.Type, MemoryTypes) {
		return bad("type", "%q is not fact, concept or lesson", m.Type)
	}
	if m.Maturity != "" && !oneOf(m.Maturity, Maturities) {
		return bad("maturity", "%q is not case, confirmed or rule", m.Maturity)
	}
	if c := m.ContentConfidence; c != nil && (*c < 1 || *c > 5) {
		return bad("content_confidence", "%d is out of range 1–5", *c)
	}
	// In name order, so that a file with two bad factors is always named
	// with the same one.
	for _, k := range slices.Sorted(maps.Keys(m.ImportanceFactors)) {
		v := m.ImportanceFactors[k]
		if !oneOf(k, ImportanceFactors) {
			return bad("importance_factors", "unknown factor %q (known: %s)", k, strings.Join(ImportanceFactors, ", "))
		}
		if v < 0 || v > 1 || math.IsNaN(v) {
			return bad("importance_factors", "%s is %v, out of range [0,1]", k, v)
		}
	}
	for i, f := range ImportanceFactors {
		m.factors[i] = m.ImportanceFactors[f]
	}
	if m.IngestionTime.IsZero() {
		return bad("ingestion_time", "missing")
	}
	if err := m.checkObservation(bad); err != nil {
		return err
	}
	m.Status = statusOfPath(m.Path)
	return nil
}

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// MemoryQuery selects memories. Zero fields select everything.
type MemoryQuery struct {
	Status   string // inbox, confirmed, trash; "" = all
	Type     string
	From, To time.Time // half-open [From, To) on ingestion_time
	Limit    int       // 0 = no limit
	Offset   int
	// Light drops each record's document after reading it (Memory.Doc is
	// nil): a listing of many records then holds only their fields. Load
	// the document with LoadDocument before editing the record.
	Light bool
	// Progress, when set, is told how many of the files to read are read.
	// It is called from several goroutines.
	Progress func(done, total int)
	// DeferIndex leaves writing the memory index to the store's next
	// WriteCaches (Save calls it after its last sync).
	DeferIndex bool
	// Match, when set, keeps only the records whose summary it matches
	// (Memory.Summary with Store.DedupPrefix): the memory index answers it
	// for the files it knows, which are then not read.
	Match func(MemorySummary) bool
	// Secrets, when set, makes a file that holds a secret invalid input:
	// reported with its line and left where it is, so that a run never
	// moves (and commits) it.
	Secrets *secrets.Policy
}

// MemoryList is a page of memories plus the files that could not be read.
type MemoryList struct {
	Memories []*Memory
	Total    int // matches before paging
	Invalid  []*InvalidFile
	// Delta: Memories holds only the records changed since the listing
	// the caller holds, and Removed the paths no longer listed (the live
	// listing's ListDelta).
	Delta   bool
	Removed []string
}

// MemoryFolders are the folders that hold memories of a status.
func MemoryFolders(status, typ string) []string {
	var out []string
	if status == "" || status == "inbox" {
		out = append(out, "memory/inbox")
	}
	if status == "" || status == "confirmed" {
		for _, t := range MemoryTypes {
			if typ == "" || typ == t {
				out = append(out, "memory/confirmed/"+t)
			}
		}
	}
	if status == "" || status == "trash" {
		out = append(out, "memory/trash")
	}
	return out
}

// SortMemories orders by (ingestion_time, id).
func SortMemories(ms []*Memory) {
	sort.Slice(ms, func(i, j int) bool {
		if !ms[i].IngestionTime.Equal(ms[j].IngestionTime) {
			return ms[i].IngestionTime.Before(ms[j].IngestionTime)
		}
		return ms[i].ID < ms[j].ID
	})
}

// RecordNames lists the *.md files of a folder, sorted; a missing folder is empty.
func RecordNames(dir string) ([]string, error) {
	f, err := OpenFolder(dir)
	if f == nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	out := names[:0]
	for _, n := range names {
		if IsRecordName(n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

// IsRecordName tells a record file's name (*.md, not hidden) from others.
func IsRecordName(n string) bool {
	return strings.HasSuffix(n, ".md") && !strings.HasPrefix(n, ".")
}

// OpenFolder opens a folder to list it; a missing folder is nil, nil.
func OpenFolder(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return f, err
}

// ExistingMemoryFile returns the store-relative path of any file (readable
// or not) that holds a memory with this id, or "".
func (s *Store) ExistingMemoryFile(id string) string {
	for _, dir := range MemoryFolders("", "") {
		rel := dir + "/" + id + ".md"
		if _, err := os.Lstat(s.Path(rel)); err == nil {
			return rel
		}
	}
	return ""
}

// Exists reports whether a store-relative path exists (a broken symlink counts).
func (s *Store) Exists(rel string) bool {
	_, err := os.Lstat(s.Path(rel))
	return err == nil
}

// FindMemory finds a memory by id in any folder.
func (s *Store) FindMemory(id string) (*Memory, error) {
	rel, err := s.MemoryPath(id)
	if err != nil {
		return nil, err
	}
	return s.ReadMemory(rel)
}

// MemoryPath is the store path of the memory with this id, found by its
// file name without reading it (a record too large or broken to read can
// still be named, and removed).
func (s *Store) MemoryPath(id string) (string, error) {
	if err := safepath.CheckID(id); err != nil {
		return "", err
	}
	for _, dir := range MemoryFolders("", "") {
		rel := dir + "/" + id + ".md"
		if _, err := os.Lstat(s.Path(rel)); err == nil {
			return rel, nil
		}
	}
	return "", fmt.Errorf("%w: memory %s", ErrNotFound, id)
}

// ErrNotFound means a record does not exist.
var ErrNotFound = errors.New("not found")

// MemoryRead is one file ReadMemories read: its record, or why it could
// not be read.
type MemoryRead struct {
	Memory *Memory
	Err    error
}

// ReadMemories reads files on all cores (YAML parsing dominates the cost);
// results keep the order of rels. Light drops each record's document,
// progress (when set) is told how many are read, and a file that holds a
// secret of pol (when set) is not read but reported.
func (s *Store) ReadMemories(rels []string, light bool, progress func(done, total int), pol *secrets.Policy) []MemoryRead {
	out := make([]MemoryRead, len(rels))
	var done atomic.Int64
	parallel.For(len(rels), func(i int) {
		m, err := s.ReadMemory(rels[i])
		if m != nil && pol != nil {
			if fs := pol.Find(string(m.Doc.Bytes())); len(fs) > 0 {
				m, err = nil, SecretInFile(rels[i], fs[0])
			}
		}
		if light && m != nil {
			m.Doc, m.ImportanceFactors = nil, nil
		}
		out[i] = MemoryRead{m, err}
		if progress != nil {
			progress(int(done.Add(1)), len(rels))
		}
	})
	return out
}
