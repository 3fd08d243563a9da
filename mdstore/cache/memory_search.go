package cache

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/mdstore"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/mdstore/internal/filestat"
	"github.com/curator-dev/curator/mdstore/internal/packed"
)

// The memory search index keeps, for the memories of one status, what a
// search looks at (id, type, author, tags, ingestion time, brief,
// scenario, and the words of the text the engine compares, as indices into
// a word table) with the engine's candidate index built from them, in
// .curator/.cache/memory-search/<status> (git-ignored). With it a search
// reads one file and stats each memory folder instead of parsing every
// record; the files of its results are read, and those of the records
// that changed. The file is read into one buffer and its entries are found
// by offset: a search decodes only the entries it looks at (the
// candidates a filter takes, the texts it scores, its results, the
// fallback's walk), not all of them.
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
// search slower. An entry that cannot be decoded when it is looked at
// (Damaged) makes the caller ask again with Rebuild.

// memorySearchDir holds one search index per status.
const memorySearchDir = ".cache/memory-search"

// memorySearchMagic starts the file: then the analyser's version and the
// layout (memorySearchLayout) on one line, the time it was written, the
// word table, the entries, the files that could not be read, the
// folders' times and entries, the engine's stored index, and a CRC-32C of
// all that.
const memorySearchMagic = "curator-memory-search-2\n"

// memorySearchLayout ends the version line: an index of another layout is
// rebuilt. The entries are found by offset: after their count, the paths
// (a table of their ends, 4 bytes each, then their bytes, in path order),
// the entries' ends (4 bytes each), the entries newest first (4-byte
// indices: by ingestion time, then path), then the entries, each its
// file's size and times, its fields and its terms.
const memorySearchLayout = " | entries by offset 1"

// MemorySearchQuery asks for the memories of a status as the search index
// holds them.
type MemorySearchQuery struct {
	Status string
	// Analyser gives the words of a memory's Text; an index written with
	// another version is rebuilt.
	Analyser Analyser
	// Text is what the engine compares with a query.
	Text func(*mdstore.Memory) string
	// Verify states every file, trusting no folder by its times.
	Verify bool
	// Rebuild reads every file again, the stored index being damaged: an
	// entry of it could not be decoded (SearchedMemories.Damaged).
	Rebuild bool
	// Map maps the index's file instead of reading it (on unix): a search
	// touches only the pages it needs and copies none, but the mapping is
	// kept until the process ends (the memories' strings are slices of
	// it), so it is for a process that searches once, as a command does.
	Map bool
}

// SearchedMemories are the memories of a status as the search index holds
// them, sorted by path; each is decoded when asked (Memory).
type SearchedMemories struct {
	// Words is the word table Terms index into.
	Words []string
	// Invalid are the files that could not be read, in the listing's order.
	Invalid []*mdstore.InvalidFile
	// Stored is the engine's index stored with these memories (their
	// paths and terms, in this order); nil when they changed since or none
	// was stored.
	Stored []byte
	// Warning says why the stored index was not used, when it was damaged
	// or written for another analysis.
	Warning string

	file *searchFile // the index read (nil: none)
	// from is nil when the memories are the file's entries; else, for
	// each memory, its entry in the file, or -1-i for fresh[i].
	from    []int32
	fresh   []freshEntry
	newest  []int32 // the memories newest first, when from is not nil (made when asked)
	damaged bool
	invalid []string // the paths of Invalid
	folders []folderTimes
	rel     string
	version string
	written int64
	dirty   bool
}

// freshEntry is a memory read from its file by this search.
type freshEntry struct {
	m     *mdstore.Memory
	terms string // as uvarints
	st    filestat.Stat
}

// memorySearchPath is the store-relative file of a status's search index.
func memorySearchPath(status string) string { return memorySearchDir + "/" + status }

// Len is the number of memories.
func (sm *SearchedMemories) Len() int {
	if sm.from == nil {
		return sm.file.len()
	}
	return len(sm.from)
}

// Path is memory i's store-relative path.
func (sm *SearchedMemories) Path(i int) string {
	if sm.from == nil {
		return sm.file.path(i)
	}
	if j := sm.from[i]; j >= 0 {
		return sm.file.path(int(j))
	}
	return sm.fresh[-1-sm.from[i]].m.Path
}

// Paths are the memories' paths, in order.
func (sm *SearchedMemories) Paths() []string {
	out := make([]string, sm.Len())
	for i := range out {
		out[i] = sm.Path(i)
	}
	return out
}

// Find is the memory at a path; false when there is none.
func (sm *SearchedMemories) Find(path string) (int, bool) {
	i := sort.Search(sm.Len(), func(i int) bool { return sm.Path(i) >= path })
	return i, i < sm.Len() && sm.Path(i) == path
}

// Memory is memory i, with its fields only (as a Light listing has them,
// without the importance factors): read its file for the rest. Its
// strings share the index's bytes. An entry that cannot be decoded gives
// a record with its path only, and Damaged reports it.
func (sm *SearchedMemories) Memory(i int) *mdstore.Memory {
	if sm.from != nil && sm.from[i] < 0 {
		return sm.fresh[-1-sm.from[i]].m
	}
	j := i
	if sm.from != nil {
		j = int(sm.from[i])
	}
	m := &mdstore.Memory{}
	if _, _, ok := sm.file.entry(j, m); !ok {
		sm.damaged = true
		return &mdstore.Memory{Path: sm.file.path(j)}
	}
	m.Path = sm.file.path(j)
	return m
}

// Terms are the words of memory i's text, as indices into Words.
func (sm *SearchedMemories) Terms(i int) []uint32 {
	var terms string
	if sm.from != nil && sm.from[i] < 0 {
		terms = sm.fresh[-1-sm.from[i]].terms
	} else {
		j := i
		if sm.from != nil {
			j = int(sm.from[i])
		}
		var m mdstore.Memory
		var ok bool
		if _, terms, ok = sm.file.entry(j, &m); !ok {
			sm.damaged = true
			return nil
		}
	}
	u := packed.Reader{Rest: []byte(terms)}
	out := make([]uint32, 0, len(terms))
	for len(u.Rest) > 0 {
		out = append(out, uint32(u.Uvarint()))
	}
	return out
}

// Newest is the memory that comes k-th when they are taken newest first
// (by ingestion time, then path); -1, with Damaged, when the index does
// not say.
func (sm *SearchedMemories) Newest(k int) int {
	if sm.from == nil {
		i := sm.file.newestAt(k)
		if i < 0 {
			sm.damaged = true
		}
		return i
	}
	if sm.newest == nil {
		sm.newest = sm.newestOrder()
	}
	return int(sm.newest[k])
}

// Damaged reports whether an entry of the stored index could not be
// decoded when it was asked: the answers given from it may be wrong, and
// a search asks again with Rebuild.
func (sm *SearchedMemories) Damaged() bool { return sm.damaged }

// newestOrder is the memories newest first, then by path.
func (sm *SearchedMemories) newestOrder() []int32 {
	n := sm.Len()
	times := make([]time.Time, n)
	for i := range n {
		times[i] = sm.Memory(i).IngestionTime
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	// The memories are in path order: a stable sort by time keeps it.
	slices.SortStableFunc(order, func(a, b int32) int { return times[b].Compare(times[a]) })
	return order
}

// SearchMemories returns the memories of a status as the search index
// holds them. A folder whose times did not change is trusted without a
// stat of its files (adding, removing or renaming a file changes the
// folder); the files of the other folders are stated, and those that
// changed read again. With q.Verify every file is stated; with q.Rebuild
// every file is read.
func SearchMemories(s *mdstore.Store, q MemorySearchQuery) (*SearchedMemories, error) {
	now := time.Now().UnixNano()
	sm := &SearchedMemories{rel: memorySearchPath(q.Status), version: q.Analyser.Version}
	old, warn := readMemorySearch(filepath.Join(s.Dir, sm.rel), q.Analyser.Version, q.Map)
	if q.Rebuild && old.found {
		old, warn = &searchFile{}, "damaged (cannot be decoded)"
	}
	if warn != "" {
		sm.Warning = "memory search index " + filepath.ToSlash(filepath.Join(".curator", sm.rel)) + ": " + warn + "; rebuilt"
	}
	sm.file = old
	settled := old.written - racyWindow.Nanoseconds() // changed before this: the index saw it
	var byPath map[string]int
	type listed struct {
		rel  string
		st   filestat.Stat
		from int // the old entry used, -1: read
		read int // index in toRead
	}
	// Each folder's files by name, the folders by path: the memories in
	// path order without sorting them. A folder trusted by its times, with
	// no file that could not be read, keeps its entries [first, end) of
	// the file, not listed one by one.
	type folder struct {
		dir         string
		files       []listed
		first, end  int
		whole, some bool // whole: the entries [first, end); some: files listed
	}
	var folders []folder
	var toRead []string
	for _, dir := range mdstore.MemoryFolders(q.Status, "") {
		st, ok := statDir(s.Path(dir))
		if !ok {
			folders = append(folders, folder{dir: dir})
			continue
		}
		f := folder{dir: dir}
		if rec, known := old.folders[dir]; known && !q.Verify && rec.st.mtime == st.mtime && rec.st.ctime == st.ctime && max(st.mtime, st.ctime) < settled {
			if bad := old.invalidIn[dir]; len(bad) > 0 {
				f.some = true
				f.files = make([]listed, 0, rec.end-rec.first+len(bad))
				for i := rec.first; i < rec.end; i++ {
					f.files = append(f.files, listed{old.path(i), filestat.Stat{}, i, -1})
				}
				// Read again on every search, for their errors.
				for _, rel := range bad {
					f.files = append(f.files, listed{rel, filestat.Stat{}, -1, len(toRead)})
					toRead = append(toRead, rel)
				}
				slices.SortFunc(f.files, func(a, b listed) int { return strings.Compare(a.rel, b.rel) })
			} else {
				f.whole, f.first, f.end = true, rec.first, rec.end
			}
			sm.folders = append(sm.folders, folderTimes{dir: dir, st: st})
			folders = append(folders, f)
			continue
		}
		sm.dirty = true
		sm.folders = append(sm.folders, folderTimes{dir: dir, st: st}) // before the scan: a change during it changes the folder again
		files, err := filestat.Scan(s.Path(dir), mdstore.IsRecordName)
		if err != nil {
			return nil, err
		}
		if byPath == nil {
			byPath = make(map[string]int, old.len())
			for i := range old.len() {
				byPath[old.path(i)] = i
			}
		}
		f.some = true
		slices.SortFunc(files, func(a, b filestat.Stat) int { return strings.Compare(a.Name, b.Name) })
		for _, fs := range files {
			rel := dir + "/" + fs.Name
			fs.Name = ""
			if i, ok := byPath[rel]; ok && fs.Regular && max(fs.Mtime, fs.Ctime) < settled {
				if st, ok := old.stat(i); ok && sameFile(st, fs) {
					f.files = append(f.files, listed{rel, fs, i, -1})
					continue
				}
			}
			f.files = append(f.files, listed{rel, fs, -1, len(toRead)})
			toRead = append(toRead, rel)
		}
		folders = append(folders, f)
	}
	read := make([]*mdstore.Memory, len(toRead))
	errs := make([]error, len(toRead))
	parallel.For(len(toRead), func(i int) {
		read[i], errs[i] = s.ReadMemory(toRead[i])
	})
	// The files that could not be read, in the listing's order.
	for _, f := range folders {
		for _, l := range f.files {
			if l.read >= 0 && errs[l.read] != nil {
				sm.Invalid = append(sm.Invalid, mdstore.InvalidFileOf(l.rel, errs[l.read]))
			}
		}
	}
	slices.SortFunc(folders, func(a, b folder) int { return strings.Compare(a.dir, b.dir) })
	n := 0
	for _, f := range folders {
		n += len(f.files) + f.end - f.first
	}
	words := old.words
	// Nothing new read, every entry kept in its place: the entries as read.
	kept, fresh := 0, false
	for _, f := range folders {
		if f.whole && f.first < f.end {
			if f.first != kept {
				fresh = true
			}
			kept = f.end
		}
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
	if !fresh && kept == old.len() {
		if len(sm.invalid) != len(old.invalid) || warn != "" || !old.found {
			sm.dirty = true
		}
		sm.Stored, sm.Words, sm.written = old.stored, words, now
		return sm, nil
	}
	sm.invalid = nil
	sm.from = make([]int32, 0, n)
	same := old.stored != nil
	var wordIDs map[string]uint32
	for _, f := range folders {
		for i := f.first; i < f.end; i++ {
			same = same && i == len(sm.from)
			sm.from = append(sm.from, int32(i))
		}
		for _, l := range f.files {
			if l.from >= 0 {
				same = same && l.from == len(sm.from)
				sm.from = append(sm.from, int32(l.from))
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
			k := len(sm.from)
			sm.from = append(sm.from, int32(-1-len(sm.fresh)))
			sm.fresh = append(sm.fresh, freshEntry{m: m, terms: string(terms), st: l.st})
			if same && k < old.len() && old.path(k) == m.Path {
				var om mdstore.Memory
				_, oldTerms, ok := old.entry(k, &om)
				same = ok && oldTerms == string(terms)
			} else {
				same = false
			}
		}
	}
	if len(sm.from) != old.len() {
		same = false
	}
	if len(sm.from) != old.len() || len(sm.invalid) != len(old.invalid) || warn != "" || !old.found {
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
func sameFile(a, b filestat.Stat) bool {
	return a.Size == b.Size && a.Mtime == b.Mtime && a.Ctime == b.Ctime
}

// QueueSave queues the write of the search index with the run's other
// caches (WriteCaches) when it changed or stored is new: stored is the
// engine's index of the memories (nil: none). Best effort: an index that
// cannot be written only costs speed next time.
func (sm *SearchedMemories) QueueSave(s *mdstore.Store, stored func() []byte) {
	if !sm.dirty && sm.Stored != nil {
		return
	}
	s.QueueCache(sm.rel, func() {
		b, ok := sm.encode(stored())
		if !ok {
			return // an entry of the index read could not be decoded
		}
		path := filepath.Join(s.Dir, sm.rel)
		if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
			_ = durable.WriteFile(path, b, 0o644, false)
		}
	})
}

// encode is the file of the index: the entries kept from the file read
// are copied as they are. False when one of them cannot be decoded.
func (sm *SearchedMemories) encode(stored []byte) ([]byte, bool) {
	n := sm.Len()
	var newest []int32
	if sm.from == nil {
		newest = make([]int32, n)
		for k := range newest {
			newest[k] = int32(sm.Newest(k))
		}
	} else {
		if sm.newest == nil {
			sm.newest = sm.newestOrder()
		}
		newest = sm.newest
	}
	if sm.damaged {
		return nil, false
	}
	var w []byte
	w = append(w, memorySearchMagic...)
	w = append(w, sm.version...)
	w = append(w, memorySearchLayout+"\n"...)
	w = binary.AppendVarint(w, sm.written)
	w = binary.AppendUvarint(w, uint64(len(sm.Words)))
	for _, word := range sm.Words {
		w = packed.AppendString(w, word)
	}
	w = binary.AppendUvarint(w, uint64(n))
	var paths []byte
	for i := range n {
		paths = append(paths, sm.Path(i)...)
		w = binary.LittleEndian.AppendUint32(w, uint32(len(paths)))
	}
	w = append(w, paths...)
	var entries []byte
	for i := range n {
		if sm.from == nil || sm.from[i] >= 0 {
			j := i
			if sm.from != nil {
				j = int(sm.from[i])
			}
			entries = append(entries, sm.file.entryBytes(j)...)
		} else {
			e := sm.fresh[-1-sm.from[i]]
			entries = appendSearchEntry(entries, e.m, e.st, e.terms)
		}
		w = binary.LittleEndian.AppendUint32(w, uint32(len(entries)))
	}
	for _, i := range newest {
		w = binary.LittleEndian.AppendUint32(w, uint32(i))
	}
	w = append(w, entries...)
	w = binary.AppendUvarint(w, uint64(len(sm.invalid)))
	for _, rel := range sm.invalid {
		w = packed.AppendString(w, rel)
	}
	// The folders, each with its entries [first, end): the paths are
	// sorted, so a folder's files are together.
	w = binary.AppendUvarint(w, uint64(len(sm.folders)))
	for _, f := range sm.folders {
		first := sort.Search(n, func(i int) bool { return sm.Path(i) >= f.dir+"/" })
		end := sort.Search(n, func(i int) bool { return sm.Path(i) >= f.dir+"0" }) // '0' follows '/'
		w = packed.AppendString(w, f.dir)
		w = binary.AppendVarint(w, f.st.mtime)
		w = binary.AppendVarint(w, f.st.ctime)
		w = binary.AppendUvarint(w, uint64(first))
		w = binary.AppendUvarint(w, uint64(end))
	}
	w = packed.AppendString(w, string(stored))
	return binary.BigEndian.AppendUint32(w, crc32.Checksum(w, castagnoli)), true
}

// appendSearchEntry appends a memory's entry: its file's size and times,
// its fields and its terms.
func appendSearchEntry(w []byte, m *mdstore.Memory, st filestat.Stat, terms string) []byte {
	w = binary.AppendVarint(w, st.Size)
	w = binary.AppendVarint(w, st.Mtime)
	w = binary.AppendVarint(w, st.Ctime)
	for _, f := range [...]string{m.ID, m.Type, m.Status, m.Author, m.Brief, m.Scenario, m.Maturity} {
		w = packed.AppendString(w, f)
	}
	w = packed.AppendStrings(w, m.Tags)
	w = binary.AppendVarint(w, m.IngestionTime.Unix())
	w = binary.AppendUvarint(w, uint64(m.IngestionTime.Nanosecond()))
	return packed.AppendString(w, terms)
}

// searchFile is a search index as read from its file: the buffer read,
// its entries decoded when asked.
type searchFile struct {
	found   bool
	written int64
	words   []string
	n       int
	paths   []byte // the paths' ends (4 bytes each), then their bytes
	ends    []byte // the entries' ends in entries (4 bytes each)
	newest  []byte // the entries newest first (4 bytes each)
	entries []byte
	invalid []string
	// invalidIn are the files that could not be read, by folder.
	invalidIn map[string][]string
	folders   map[string]searchFolderOf
	stored    []byte
}

// searchFolderOf is what the index holds of a folder: its times and its
// entries [first, end).
type searchFolderOf struct {
	st         folderStat
	first, end int
}

func (f *searchFile) len() int { return f.n }

func u32At(b []byte, i int) int { return int(binary.LittleEndian.Uint32(b[4*i:])) }

// path is entry i's path, a slice of the file's bytes.
func (f *searchFile) path(i int) string {
	start := 0
	if i > 0 {
		start = u32At(f.paths, i-1)
	}
	return packed.View(f.paths[4*f.n+start : 4*f.n+u32At(f.paths, i)])
}

// entryBytes is entry i as stored.
func (f *searchFile) entryBytes(i int) []byte {
	start := 0
	if i > 0 {
		start = u32At(f.ends, i-1)
	}
	return f.entries[start:u32At(f.ends, i)]
}

// stat is the stat of entry i's file when the index was written.
func (f *searchFile) stat(i int) (filestat.Stat, bool) {
	u := packed.Reader{Rest: f.entryBytes(i)}
	st := filestat.Stat{Size: u.Varint(), Mtime: u.Varint(), Ctime: u.Varint(), Regular: true}
	return st, !u.Bad
}

// entry decodes entry i's fields into m (all but its path) and returns
// its stat and terms; false when it cannot be decoded.
func (f *searchFile) entry(i int, m *mdstore.Memory) (filestat.Stat, string, bool) {
	u := packed.Reader{Rest: f.entryBytes(i)}
	st := filestat.Stat{Size: u.Varint(), Mtime: u.Varint(), Ctime: u.Varint(), Regular: true}
	m.ID, m.Type, m.Status, m.Author, m.Brief, m.Scenario, m.Maturity = u.View(), u.View(), u.View(), u.View(), u.View(), u.View(), u.View()
	if n, ok := u.Count(); ok {
		m.Tags = make([]string, n)
		for k := range m.Tags {
			m.Tags[k] = u.View()
		}
	}
	sec := u.Varint()
	nsec := u.Uvarint()
	if nsec >= 1e9 {
		u.Bad = true
	}
	m.IngestionTime = time.Unix(sec, int64(nsec)).UTC()
	terms := u.View()
	if u.Bad || len(u.Rest) != 0 {
		return filestat.Stat{}, "", false
	}
	return st, terms, true
}

// newestAt is the entry that comes k-th newest first; -1 when the table
// names none.
func (f *searchFile) newestAt(k int) int {
	i := u32At(f.newest, k)
	if i >= f.n {
		return -1
	}
	return i
}

// readMemorySearch reads a search index file: empty when there is none,
// with why it was not taken when it is damaged or another version's. The
// entries are checked as far as finding them by offset needs (their ends
// and paths in order, each folder's entries together); each is decoded
// when asked.
func readMemorySearch(path, version string, mapped bool) (*searchFile, string) {
	read := os.ReadFile
	if mapped {
		read = mapFile
	}
	data, err := read(path)
	if err != nil {
		return &searchFile{}, ""
	}
	head := memorySearchMagic + version + memorySearchLayout + "\n"
	if !bytes.HasPrefix(data, []byte(memorySearchMagic)) {
		return &searchFile{}, "not a memory search index"
	}
	if !bytes.HasPrefix(data, []byte(head)) {
		return &searchFile{}, "written for another analysis of words"
	}
	if len(data) < len(head)+4 {
		return &searchFile{}, "damaged (cut short)"
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(data[len(body):]) {
		return &searchFile{}, "damaged (checksum)"
	}
	f, ok := decodeMemorySearch(body[len(head):])
	if !ok {
		return &searchFile{}, "damaged (cannot be decoded)"
	}
	return f, ""
}

// decodeMemorySearch reads what encode wrote after its head; the strings
// are slices of b, which is not changed after.
func decodeMemorySearch(b []byte) (*searchFile, bool) {
	u := &packed.Reader{Rest: b}
	f := &searchFile{}
	f.written = u.Varint()
	nw := u.Uvarint()
	if nw > uint64(len(u.Rest)) {
		return nil, false
	}
	f.words = make([]string, nw)
	for i := range f.words {
		f.words[i] = u.View()
	}
	n := u.Uvarint()
	if u.Bad || n > uint64(len(u.Rest)/12) {
		return nil, false
	}
	f.n = int(n)
	start := len(b) - len(u.Rest)
	ends := u.Fixed(4 * f.n)
	npaths := 0
	if f.n > 0 && !u.Bad {
		npaths = u32At(ends, f.n-1)
	}
	pathBytes := u.Fixed(npaths)
	if u.Bad {
		return nil, false
	}
	f.paths = b[start : start+4*f.n+npaths]
	f.ends = u.Fixed(4 * f.n)
	f.newest = u.Fixed(4 * f.n)
	nentries := 0
	if f.n > 0 && !u.Bad {
		nentries = u32At(f.ends, f.n-1)
	}
	f.entries = u.Fixed(nentries)
	if u.Bad {
		return nil, false
	}
	// The paths' and entries' ends ascend, the paths are sorted, each once.
	prevPath, prevEntry, last := 0, 0, []byte(nil)
	for i := range f.n {
		p, e := u32At(ends, i), u32At(f.ends, i)
		if p <= prevPath || p > npaths || e <= prevEntry || e > nentries {
			return nil, false
		}
		path := pathBytes[prevPath:p]
		if i > 0 && bytes.Compare(last, path) >= 0 {
			return nil, false
		}
		prevPath, prevEntry, last = p, e, path
	}
	ni := u.Uvarint()
	if ni > uint64(len(u.Rest)) {
		return nil, false
	}
	f.invalid = make([]string, ni)
	f.invalidIn = map[string][]string{}
	for i := range f.invalid {
		p := u.View()
		f.invalid[i] = p
		dir := p[:max(strings.LastIndexByte(p, '/'), 0)]
		f.invalidIn[dir] = append(f.invalidIn[dir], p)
	}
	// The folders' entries: together, in order, every entry in one.
	nf := u.Uvarint()
	if nf > uint64(len(u.Rest)) {
		return nil, false
	}
	f.folders = make(map[string]searchFolderOf, nf)
	var ranges [][2]int
	for range nf {
		dir := u.View()
		rec := searchFolderOf{st: folderStat{mtime: u.Varint(), ctime: u.Varint()}}
		first, end := u.Uvarint(), u.Uvarint()
		if u.Bad || first > end || end > n {
			return nil, false
		}
		rec.first, rec.end = int(first), int(end)
		if rec.first < rec.end {
			if !inFolder(f.path(rec.first), dir) || !inFolder(f.path(rec.end-1), dir) {
				return nil, false
			}
			ranges = append(ranges, [2]int{rec.first, rec.end})
		}
		if _, twice := f.folders[dir]; twice {
			return nil, false
		}
		f.folders[dir] = rec
	}
	slices.SortFunc(ranges, func(a, b [2]int) int { return a[0] - b[0] })
	covered := 0
	for _, r := range ranges {
		if r[0] != covered {
			return nil, false
		}
		covered = r[1]
	}
	if covered != f.n {
		return nil, false
	}
	f.stored = u.Bytes()
	if u.Bad || len(u.Rest) != 0 {
		return nil, false
	}
	if len(f.stored) == 0 {
		f.stored = nil
	}
	f.found = true
	return f, true
}

// inFolder reports whether a path is a file of dir (not of a folder in it).
func inFolder(path, dir string) bool {
	return len(path) > len(dir)+1 && strings.HasPrefix(path, dir) && path[len(dir)] == '/' && strings.IndexByte(path[len(dir)+1:], '/') < 0
}
