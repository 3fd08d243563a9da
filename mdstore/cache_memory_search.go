package mdstore

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/internal/parallel"
)

// The memory search index keeps, for the memories of one status, what a
// search looks at (id, type, author, tags, ingestion time, brief,
// scenario, and the words of the text the engine compares, as indices into
// a word table) with the engine's candidate index built from them, in
// .curator/.cache/memory-search/<status> (git-ignored). With it a search
// reads one file and stats each memory folder instead of parsing every
// record; the files of its results are read, and those of the records
// that changed.
//
// A folder whose modification and change times are the ones the index
// recorded is trusted without a stat of its files: adding, removing or
// renaming a file changes the folder. In another folder each file is
// stated, and an entry is used only while its file has the size,
// modification time and change time the entry recorded; any other file is
// read again. Times within racyWindow of the index's writing are never
// trusted (a change in the same clock tick would not show). A file that
// cannot be read is never kept: it is read again, and reported, by every
// search. An edit made in place, without a rename, is not seen by the
// folder's times: the caller checks the files it reads (its results) and
// asks again with Verify when one differs from its entry. A missing index
// is built; a damaged one, or one written for another analysis of texts,
// is rebuilt with a warning naming it: deleting it only makes the next
// search slower.

// memorySearchDir holds one search index per status.
const memorySearchDir = ".cache/memory-search"

// memorySearchMagic starts the file: then the analyser's version line, the
// time it was written, the word table, the entries, the files that could
// not be read, the folders' times, the engine's stored index, and a
// CRC-32C of all that.
const memorySearchMagic = "curator-memory-search-2\n"

// MemorySearchQuery asks for the memories of a status as the search index
// holds them.
type MemorySearchQuery struct {
	Status string
	// Analyser gives the words of a memory's Text; an index written with
	// another version is rebuilt.
	Analyser Analyser
	// Text is what the engine compares with a query.
	Text func(*Memory) string
	// Verify states every file, trusting no folder by its times.
	Verify bool
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
	invalid []string // the paths of Invalid
	folders []folderTimes
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
// holds them. A folder whose times did not change is trusted without a
// stat of its files (adding, removing or renaming a file changes the
// folder); the files of the other folders are stated, and those that
// changed read again. With q.Verify every file is stated.
func (s *Store) SearchedMemories(q MemorySearchQuery) (*SearchedMemories, error) {
	now := time.Now().UnixNano()
	sm := &SearchedMemories{rel: memorySearchPath(q.Status), version: q.Analyser.Version}
	old, warn := readMemorySearch(filepath.Join(s.Dir, sm.rel), q.Analyser.Version)
	if warn != "" {
		sm.Warning = "memory search index " + filepath.ToSlash(filepath.Join(".curator", sm.rel)) + ": " + warn + "; rebuilt"
	}
	settled := old.written - racyWindow.Nanoseconds() // changed before this: the index saw it
	var byPath map[string]int
	type listed struct {
		rel  string
		st   fileStat
		from int // the old entry used, -1: read
		read int // index in toRead
	}
	// Each folder's files by name, the folders by path: the memories in
	// path order without sorting them.
	type folder struct {
		dir   string
		files []listed
	}
	var folders []folder
	var toRead []string
	for _, dir := range MemoryFolders(q.Status, "") {
		st, ok := statDir(s.Path(dir))
		if !ok {
			folders = append(folders, folder{dir: dir})
			continue
		}
		f := folder{dir: dir}
		if rec, known := old.folders[dir]; known && !q.Verify && rec.mtime == st.mtime && rec.ctime == st.ctime && max(st.mtime, st.ctime) < settled {
			at := old.byDir[dir]
			f.files = make([]listed, 0, at[1]-at[0])
			for i := at[0]; i < at[1]; i++ {
				f.files = append(f.files, listed{old.paths[i], old.stats[i], i, -1})
			}
			if bad := old.invalidIn[dir]; len(bad) > 0 {
				// Read again on every search, for their errors.
				for _, rel := range bad {
					f.files = append(f.files, listed{rel, fileStat{}, -1, len(toRead)})
					toRead = append(toRead, rel)
				}
				slices.SortFunc(f.files, func(a, b listed) int { return strings.Compare(a.rel, b.rel) })
			}
			sm.folders = append(sm.folders, folderTimes{dir, st})
			folders = append(folders, f)
			continue
		}
		sm.dirty = true
		sm.folders = append(sm.folders, folderTimes{dir, st}) // before the scan: a change during it changes the folder again
		files, err := scanFolder(s.Path(dir))
		if err != nil {
			return nil, err
		}
		if byPath == nil {
			byPath = make(map[string]int, len(old.paths))
			for i, p := range old.paths {
				byPath[p] = i
			}
		}
		slices.SortFunc(files, func(a, b fileStat) int { return strings.Compare(a.name, b.name) })
		for _, fs := range files {
			rel := dir + "/" + fs.name
			fs.name = ""
			if i, ok := byPath[rel]; ok && fs.regular && sameFile(old.stats[i], fs) && max(fs.mtime, fs.ctime) < settled {
				f.files = append(f.files, listed{rel, fs, i, -1})
				continue
			}
			f.files = append(f.files, listed{rel, fs, -1, len(toRead)})
			toRead = append(toRead, rel)
		}
		folders = append(folders, f)
	}
	read := make([]*Memory, len(toRead))
	errs := make([]error, len(toRead))
	parallel.For(len(toRead), func(i int) {
		read[i], errs[i] = s.ReadMemory(toRead[i])
	})
	// The files that could not be read, in the listing's order.
	for _, f := range folders {
		for _, l := range f.files {
			if l.read >= 0 && errs[l.read] != nil {
				sm.Invalid = append(sm.Invalid, InvalidFileOf(l.rel, errs[l.read]))
			}
		}
	}
	slices.SortFunc(folders, func(a, b folder) int { return strings.Compare(a.dir, b.dir) })
	n := 0
	for _, f := range folders {
		n += len(f.files)
	}
	words := old.words
	var wordIDs map[string]uint32
	sm.Memories = make([]Memory, 0, n)
	sm.terms = make([]string, 0, n)
	sm.stats = make([]fileStat, 0, n)
	// Nothing new read, every entry kept in its place: the entries as read.
	kept, fresh := 0, false
	for _, f := range folders {
		for _, l := range f.files {
			switch {
			case l.from == kept:
				kept++
			case l.from >= 0 || errs[l.read] == nil:
				fresh = true
			default:
				sm.invalid = append(sm.invalid, l.rel)
			}
		}
	}
	if !fresh && kept == len(old.paths) {
		sm.Memories, sm.terms, sm.stats = old.memories, old.terms, old.stats
		if len(sm.invalid) != old.ninvalid || warn != "" || !old.found {
			sm.dirty = true
		}
		sm.Stored, sm.Words, sm.written = old.stored, words, now
		return sm, nil
	}
	sm.invalid = nil
	same := old.stored != nil
	for _, f := range folders {
		for _, l := range f.files {
			if l.from >= 0 {
				sm.Memories = append(sm.Memories, old.memories[l.from])
				sm.terms = append(sm.terms, old.terms[l.from])
				sm.stats = append(sm.stats, old.stats[l.from])
				same = same && l.from == len(sm.Memories)-1
				continue
			}
			if errs[l.read] != nil {
				sm.invalid = append(sm.invalid, l.rel)
				continue
			}
			sm.dirty = true
			m := read[l.read]
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
			sm.Memories = append(sm.Memories, *m)
			sm.terms = append(sm.terms, string(terms))
			sm.stats = append(sm.stats, l.st)
			k := len(sm.Memories) - 1
			same = same && k < len(old.paths) && old.paths[k] == m.Path && old.terms[k] == sm.terms[k]
		}
	}
	if len(sm.Memories) != len(old.paths) {
		same = false
	}
	if len(sm.Memories) != len(old.paths) || len(sm.invalid) != old.ninvalid || warn != "" || !old.found {
		sm.dirty = true
	}
	if same {
		sm.Stored = old.stored
	}
	sm.Words, sm.written = words, now
	return sm, nil
}

// folderTimes are a memory folder's times as the index saw them.
type folderTimes struct {
	dir string
	st  folderStat
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
	w = binary.AppendUvarint(w, uint64(len(sm.invalid)))
	for _, rel := range sm.invalid {
		w = appendSearchString(w, rel)
	}
	w = binary.AppendUvarint(w, uint64(len(sm.folders)))
	for _, f := range sm.folders {
		w = appendSearchString(w, f.dir)
		w = binary.AppendVarint(w, f.st.mtime)
		w = binary.AppendVarint(w, f.st.ctime)
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
	found     bool
	written   int64
	words     []string
	paths     []string // of the readable memories, sorted
	memories  []Memory
	terms     []string
	stats     []fileStat
	byDir     map[string][2]int   // the memories of each folder: [first, end)
	invalidIn map[string][]string // the files that could not be read, by folder
	ninvalid  int
	folders   map[string]folderStat
	stored    []byte
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
	// The entries' strings are slices of the file's bytes, which are not
	// changed after: one string for all, not a copy.
	rest := body[len(head):]
	r := &searchReader{}
	if len(rest) > 0 {
		r.b = unsafe.String(&rest[0], len(rest))
	}
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
	var tags []string // the memories' tags, a few thousand to an allocation
	for i := 0; i < n && !r.bad; i++ {
		m := &out.memories[i]
		m.Path = r.str()
		out.paths[i] = m.Path
		out.stats[i] = fileStat{size: r.varint(), mtime: r.varint(), ctime: r.varint(), regular: true}
		m.ID, m.Type, m.Status, m.Author, m.Brief, m.Scenario, m.Maturity = r.str(), r.str(), r.str(), r.str(), r.str(), r.str(), r.str()
		if nt := r.count(1); nt > 0 {
			if len(tags)+nt > cap(tags) {
				tags = make([]string, 0, max(nt, 4096))
			}
			at := len(tags)
			for range nt {
				tags = append(tags, r.str())
			}
			m.Tags = tags[at:len(tags):len(tags)]
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
	out.byDir = map[string][2]int{}
	for i := 0; i < len(out.paths); {
		p := out.paths[i]
		dir := p[:max(strings.LastIndexByte(p, '/'), 0)]
		j := i + 1
		for j < len(out.paths) && strings.HasPrefix(out.paths[j], dir+"/") && strings.LastIndexByte(out.paths[j], '/') == len(dir) {
			j++
		}
		if _, twice := out.byDir[dir]; twice {
			return storedSearch{}, false // a folder's entries not together
		}
		out.byDir[dir] = [2]int{i, j}
		i = j
	}
	out.ninvalid = r.count(1)
	out.invalidIn = map[string][]string{}
	for range out.ninvalid {
		p := r.str()
		dir := p[:max(strings.LastIndexByte(p, '/'), 0)]
		out.invalidIn[dir] = append(out.invalidIn[dir], p)
	}
	nf := r.count(3)
	out.folders = make(map[string]folderStat, nf)
	for range nf {
		dir := r.str()
		out.folders[dir] = folderStat{mtime: r.varint(), ctime: r.varint()}
	}
	out.stored = []byte(r.str())
	if r.bad || len(r.b) != 0 {
		return storedSearch{}, false
	}
	if len(out.stored) == 0 {
		out.stored = nil
	}
	out.found = true
	return out, true
}
