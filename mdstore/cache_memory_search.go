package mdstore

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/internal/parallel"
)

// The memory search index keeps, for the memories of one status, what a
// search looks at (id, type, author, tags, ingestion time, brief,
// scenario, and the words of the text the engine compares, as indices into
// a word table) with the engine's candidate index built from them, in
// .curator/.cache/memory-search/<status> (git-ignored). With it a search
// reads one file and stats each record file instead of parsing every
// record; the files of its results are read, and those of the few records
// that changed.
//
// An entry is used only while its file has the size, modification time and
// change time that the entry recorded, and was not changed within
// racyWindow before the index was written; any other file is read again
// (a file that cannot be read is never kept: it is read and reported by
// every search). So a change made by hand, as by any run, is seen by the
// next search. A missing index is built; a damaged one, or one written for
// another analysis of texts, is rebuilt with a warning naming it: deleting
// it only makes the next search slower.

// memorySearchDir holds one search index per status.
const memorySearchDir = ".cache/memory-search"

// memorySearchMagic starts the file: then the analyser's version line, the
// time it was written, the word table, the entries, the engine's stored
// index, and a CRC-32C of all that.
const memorySearchMagic = "curator-memory-search-1\n"

// MemorySearchQuery asks for the memories of a status as the search index
// holds them.
type MemorySearchQuery struct {
	Status string
	// Analyser gives the words of a memory's Text; an index written with
	// another version is rebuilt.
	Analyser Analyser
	// Text is what the engine compares with a query.
	Text func(*Memory) string
}

// SearchedMemories are the memories of a status as the search index holds
// them.
type SearchedMemories struct {
	// Memories are the readable memories, sorted by path, with their
	// fields only (as a Light listing has them, without the importance
	// factors): read a result's file for the rest.
	Memories []Memory
	// Words is the word table Terms index into.
	Words []string
	// Invalid are the files that could not be read, in the listing's order.
	Invalid []*InvalidFile
	// Stored is the engine's index stored with these memories (their
	// paths and terms, in this order); nil when they changed since or none
	// was stored.
	Stored []byte
	// Warning says why the stored index was not used, when it was damaged
	// or written for another analysis.
	Warning string

	terms   []string // each memory's terms, as uvarints
	stats   []fileStat
	rel     string
	version string
	written int64
	dirty   bool
}

// Terms are the words of memory i's text, as indices into Words.
func (sm *SearchedMemories) Terms(i int) []uint32 {
	b := sm.terms[i]
	out := make([]uint32, 0, len(b))
	for len(b) > 0 {
		v, n := binary.Uvarint([]byte(b[:min(len(b), binary.MaxVarintLen32)]))
		if n <= 0 {
			break
		}
		out = append(out, uint32(v))
		b = b[n:]
	}
	return out
}

// memorySearchPath is the store-relative file of a status's search index.
func memorySearchPath(status string) string { return memorySearchDir + "/" + status }

// SearchedMemories returns the memories of a status as the search index
// holds them, each file checked by a stat and read again when it changed.
func (s *Store) SearchedMemories(q MemorySearchQuery) (*SearchedMemories, error) {
	now := time.Now().UnixNano()
	sm := &SearchedMemories{rel: memorySearchPath(q.Status), version: q.Analyser.Version}
	old, warn := readMemorySearch(filepath.Join(s.Dir, sm.rel), q.Analyser.Version)
	if warn != "" {
		sm.Warning = "memory search index " + filepath.ToSlash(filepath.Join(".curator", sm.rel)) + ": " + warn + "; rebuilt"
	}
	byPath := make(map[string]int, len(old.paths))
	for i, p := range old.paths {
		byPath[p] = i
	}
	words := old.words
	wordIDs := map[string]uint32(nil)
	type pending struct {
		at  int // index in the listing
		rel string
	}
	var toRead []pending
	type listed struct {
		rel  string
		st   fileStat
		from int // the old entry used, -1: read
	}
	var all []listed
	for _, dir := range MemoryFolders(q.Status, "") {
		files, err := scanFolder(s.Path(dir))
		if err != nil {
			return nil, err
		}
		slices.SortFunc(files, func(a, b fileStat) int { return strings.Compare(a.name, b.name) })
		for _, f := range files {
			rel := dir + "/" + f.name
			if i, ok := byPath[rel]; ok && f.regular && sameFile(old.stats[i], f) && max(f.mtime, f.ctime) < old.written-racyWindow.Nanoseconds() {
				all = append(all, listed{rel, f, i})
				continue
			}
			toRead = append(toRead, pending{len(all), rel})
			all = append(all, listed{rel, f, -1})
		}
	}
	read := make([]*Memory, len(toRead))
	errs := make([]error, len(toRead))
	parallel.For(len(toRead), func(i int) {
		read[i], errs[i] = s.ReadMemory(toRead[i].rel)
	})
	readAt := make(map[int]int, len(toRead))
	for i, p := range toRead {
		readAt[p.at] = i
	}
	// Keep the memories in path order (the folders' order is not).
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(all[a].rel, all[b].rel) })
	sm.Memories = make([]Memory, 0, len(all))
	sm.terms = make([]string, 0, len(all))
	sm.stats = make([]fileStat, 0, len(all))
	same := old.stored != nil
	for _, at := range order {
		l := all[at]
		if l.from >= 0 {
			sm.Memories = append(sm.Memories, old.memories[l.from])
			sm.terms = append(sm.terms, old.terms[l.from])
			sm.stats = append(sm.stats, old.stats[l.from])
			same = same && l.from == len(sm.Memories)-1
			continue
		}
		i := readAt[at]
		if errs[i] != nil {
			continue // reported below, in the listing's order
		}
		sm.dirty = true
		m := read[i]
		m.Doc, m.ImportanceFactors = nil, nil
		if wordIDs == nil {
			wordIDs = make(map[string]uint32, len(words))
			for id, w := range words {
				wordIDs[w] = uint32(id)
			}
		}
		var terms []byte
		for _, w := range q.Analyser.Words(q.Text(m)) {
			id, ok := wordIDs[w]
			if !ok {
				id = uint32(len(words))
				wordIDs[w] = id
				words = append(words, w)
			}
			terms = binary.AppendUvarint(terms, uint64(id))
		}
		st := l.st
		st.name = ""
		sm.Memories = append(sm.Memories, *m)
		sm.terms = append(sm.terms, string(terms))
		sm.stats = append(sm.stats, st)
		k := len(sm.Memories) - 1
		same = same && k < len(old.paths) && old.paths[k] == m.Path && old.terms[k] == sm.terms[k]
	}
	for i, p := range toRead {
		if errs[i] != nil {
			sm.Invalid = append(sm.Invalid, InvalidFileOf(p.rel, errs[i]))
		}
	}
	if len(sm.Memories) != len(old.paths) {
		same = false
	}
	if len(sm.Memories) != len(old.paths) || warn != "" || old.paths == nil {
		sm.dirty = true
	}
	if same {
		sm.Stored = old.stored
	}
	sm.Words, sm.written = words, now
	return sm, nil
}

// sameFile reports whether two stats of a file show the same size and
// times.
func sameFile(a, b fileStat) bool {
	return a.size == b.size && a.mtime == b.mtime && a.ctime == b.ctime
}

// QueueSave queues the write of the search index with the run's other
// caches (WriteCaches) when it changed or stored is new: stored is the
// engine's index of the memories (nil: none). Best effort: an index that
// cannot be written only costs speed next time.
func (sm *SearchedMemories) QueueSave(s *Store, stored func() []byte) {
	if !sm.dirty && sm.Stored != nil {
		return
	}
	s.QueueCache(sm.rel, func() {
		b := sm.encode(stored())
		path := filepath.Join(s.Dir, sm.rel)
		if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
			_ = durable.WriteFile(path, b, 0o644, false)
		}
	})
}

func (sm *SearchedMemories) encode(stored []byte) []byte {
	var w []byte
	w = append(w, memorySearchMagic...)
	w = append(w, sm.version...)
	w = append(w, '\n')
	w = binary.AppendVarint(w, sm.written)
	w = binary.AppendUvarint(w, uint64(len(sm.Words)))
	for _, word := range sm.Words {
		w = appendSearchString(w, word)
	}
	w = binary.AppendUvarint(w, uint64(len(sm.Memories)))
	for i := range sm.Memories {
		m, st := &sm.Memories[i], sm.stats[i]
		w = appendSearchString(w, m.Path)
		w = binary.AppendVarint(w, st.size)
		w = binary.AppendVarint(w, st.mtime)
		w = binary.AppendVarint(w, st.ctime)
		for _, f := range []string{m.ID, m.Type, m.Status, m.Author, m.Brief, m.Scenario, m.Maturity} {
			w = appendSearchString(w, f)
		}
		w = binary.AppendUvarint(w, uint64(len(m.Tags)))
		for _, t := range m.Tags {
			w = appendSearchString(w, t)
		}
		w = binary.AppendVarint(w, m.IngestionTime.Unix())
		w = binary.AppendUvarint(w, uint64(m.IngestionTime.Nanosecond()))
		w = appendSearchString(w, sm.terms[i])
	}
	w = appendSearchString(w, string(stored))
	return binary.BigEndian.AppendUint32(w, crc32.Checksum(w, castagnoli))
}

func appendSearchString(w []byte, s string) []byte {
	w = binary.AppendUvarint(w, uint64(len(s)))
	return append(w, s...)
}

// storedSearch is a search index as read from its file.
type storedSearch struct {
	written  int64
	words    []string
	paths    []string
	memories []Memory
	terms    []string
	stats    []fileStat
	stored   []byte
}

// readMemorySearch reads a search index file: empty when there is none,
// with why it was not taken when it is damaged or another version's.
func readMemorySearch(path, version string) (storedSearch, string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return storedSearch{}, ""
	}
	head := memorySearchMagic + version + "\n"
	if !strings.HasPrefix(string(data[:min(len(data), len(memorySearchMagic))]), memorySearchMagic) {
		return storedSearch{}, "not a memory search index"
	}
	if !strings.HasPrefix(string(data[:min(len(data), len(head))]), head) {
		return storedSearch{}, "written for another analysis of words"
	}
	if len(data) < len(head)+4 {
		return storedSearch{}, "damaged (cut short)"
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(data[len(body):]) {
		return storedSearch{}, "damaged (checksum)"
	}
	r := &searchReader{b: string(body[len(head):])}
	out, ok := r.read()
	if !ok {
		return storedSearch{}, "damaged (cannot be decoded)"
	}
	return out, ""
}

// searchReader reads what encode wrote, its strings slices of one string.
type searchReader struct {
	b   string
	bad bool
}

func (r *searchReader) uvarint() uint64 {
	if r.bad {
		return 0
	}
	v, n := binary.Uvarint([]byte(r.b[:min(len(r.b), binary.MaxVarintLen64)]))
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *searchReader) varint() int64 {
	if r.bad {
		return 0
	}
	v, n := binary.Varint([]byte(r.b[:min(len(r.b), binary.MaxVarintLen64)]))
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *searchReader) str() string {
	n := r.uvarint()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return ""
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

// count reads a count of items that each take at least min bytes.
func (r *searchReader) count(least int) int {
	n := r.uvarint()
	if n > uint64(len(r.b)/least) {
		r.bad = true
		return 0
	}
	return int(n)
}

func (r *searchReader) read() (storedSearch, bool) {
	var out storedSearch
	out.written = r.varint()
	out.words = make([]string, r.count(1))
	for i := range out.words {
		out.words[i] = r.str()
	}
	n := r.count(14)
	out.paths = make([]string, n)
	out.memories = make([]Memory, n)
	out.terms = make([]string, n)
	out.stats = make([]fileStat, n)
	for i := 0; i < n && !r.bad; i++ {
		m := &out.memories[i]
		m.Path = r.str()
		out.paths[i] = m.Path
		out.stats[i] = fileStat{size: r.varint(), mtime: r.varint(), ctime: r.varint(), regular: true}
		m.ID, m.Type, m.Status, m.Author, m.Brief, m.Scenario, m.Maturity = r.str(), r.str(), r.str(), r.str(), r.str(), r.str(), r.str()
		if nt := r.count(1); nt > 0 {
			m.Tags = make([]string, nt)
			for j := range m.Tags {
				m.Tags[j] = r.str()
			}
		}
		sec := r.varint()
		nsec := r.uvarint()
		if nsec >= 1e9 {
			r.bad = true
		}
		m.IngestionTime = time.Unix(sec, int64(nsec)).UTC()
		out.terms[i] = r.str()
		if i > 0 && out.paths[i-1] >= m.Path {
			r.bad = true // not sorted, each once
		}
	}
	out.stored = []byte(r.str())
	if r.bad || len(r.b) != 0 {
		return storedSearch{}, false
	}
	if len(out.stored) == 0 {
		out.stored = nil
	}
	if out.paths == nil {
		out.paths = []string{}
	}
	return out, true
}
