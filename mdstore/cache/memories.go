package cache

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/curator-dev/curator/mdstore"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/mdstore/internal/filestat"
)

// The memory index is a cache of (size, mtime) → summary (type,
// ingestion_time, when a pending observation window is due, a hash of the
// brief's dedup prefix: MemorySummary) for memory files, one file per memory folder in
// .curator/.cache/memory-index/ (git-ignored). It lets a listing skip
// reading files that lie outside it (a window, the windows that are due,
// the memories of one dedup key), so an hourly run costs one stat per
// stored entry plus the work of its window, not a YAML parse of the whole
// store. A file whose size or mtime changed is read again, and so is every
// file once the dedup prefix (memory.dedup_prefix) changes; a missing or
// corrupt cache only makes the listing slower.
//
// Each entry also holds the record's packed fields (PackMemory), so that
// the live listing opens from the index: it reads only the files the
// index does not know as they are now.
//
// A folder's file is read and rewritten as bytes: an entry that is still
// valid is copied as it is, so a store of 100,000 entries costs a copy, not
// 100,000 decoded entries; and a listing reads and writes only the files of
// the folders it lists (the hourly pass lists the inbox, then the confirmed
// folders and the trash for the observation windows due).

// memoryIndexDir holds the memory index, a file per memory folder. Older
// versions kept one file at this path; it is removed when the folder is
// first written.
const memoryIndexDir = ".cache/memory-index"

// memoryIndexFile is the index file of a memory folder (memory/inbox:
// .cache/memory-index/memory-inbox).
func memoryIndexFile(folder string) string {
	return memoryIndexDir + "/" + strings.ReplaceAll(folder, "/", "-")
}

// indexMagic starts the index file (its format: per entry the path, type,
// size, mtime, ingestion time, observation due time, the dedup prefix in
// runes, the brief's hash and the packed fields, a uvarint length first,
// in binary). Format 5: packed fields nest at most packed.MaxDepth deep (a
// format 4 file may hold deeper ones, which do not unpack: read again).
const indexMagic = "curator-memory-index-5\n"

// indexTail is the size of an entry's fixed-width fields.
const indexTail = 8 + 8 + 12 + 12 + 2 + 8

// indexRecord is one entry of the index file, as slices of it.
type indexRecord struct {
	rel, typ    []byte
	size, mtime int64
	ingestion   time.Time
	due         time.Time
	prefix      int
	briefHash   uint64
	fields      []byte // PackMemory's; nil when the record could not be packed
	raw         []byte
}

// summary is the record's summary.
func (r indexRecord) summary() mdstore.MemorySummary {
	return mdstore.MemorySummary{Type: string(r.typ), IngestionTime: r.ingestion, ObservationDue: r.due, BriefHash: r.briefHash}
}

// readMemoryIndex returns the entries of a memory folder's index file (nil
// when there is no usable one: missing, damaged, or holding an entry of
// another folder).
func readMemoryIndex(s *mdstore.Store, folder string) []byte {
	return memoryIndexOf(s, folder, os.ReadFile)
}

// mappedMemoryIndex is readMemoryIndex with the file mapped, not read: no
// copy and no new pages, but the mapping is never released (see
// MapFiles).
func mappedMemoryIndex(s *mdstore.Store, folder string) []byte {
	return memoryIndexOf(s, folder, mapFile)
}

// memoryIndexOf is readMemoryIndex, the file's bytes got by read.
func memoryIndexOf(s *mdstore.Store, folder string, read func(string) ([]byte, error)) []byte {
	data, err := read(filepath.Join(s.Dir, memoryIndexFile(folder)))
	if err != nil || !bytes.HasPrefix(data, []byte(indexMagic)) {
		return nil
	}
	data = data[len(indexMagic):]
	other := false
	if !eachIndexRecord(data, func(r indexRecord) {
		if slash := bytes.LastIndexByte(r.rel, '/'); slash < 0 || string(r.rel[:slash]) != folder {
			other = true
		}
	}) || other {
		return nil // damaged: start over
	}
	return data
}

// eachIndexRecord calls f for every entry; false when the data is damaged.
func eachIndexRecord(b []byte, f func(indexRecord)) bool {
	for len(b) > 0 {
		start := b
		str := func() ([]byte, bool) {
			if len(b) < 2 {
				return nil, false
			}
			n := int(binary.BigEndian.Uint16(b))
			if len(b) < 2+n {
				return nil, false
			}
			v := b[2 : 2+n]
			b = b[2+n:]
			return v, true
		}
		rel, ok1 := str()
		typ, ok2 := str()
		if !ok1 || !ok2 || len(b) < indexTail {
			return false
		}
		r := indexRecord{
			rel: rel, typ: typ,
			size:      int64(binary.BigEndian.Uint64(b)),
			mtime:     int64(binary.BigEndian.Uint64(b[8:])),
			ingestion: indexTime(b[16:]),
			due:       indexTime(b[28:]),
			prefix:    int(binary.BigEndian.Uint16(b[40:])),
			briefHash: binary.BigEndian.Uint64(b[42:]),
		}
		b = b[indexTail:]
		n, w := binary.Uvarint(b)
		if w <= 0 || n > uint64(len(b)-w) {
			return false
		}
		if n > 0 {
			r.fields = b[w : w+int(n)]
		}
		b = b[w+int(n):]
		r.raw = start[:len(start)-len(b)]
		f(r)
	}
	return true
}

// indexTime reads a time of the index (seconds and nanoseconds); the zero
// time reads back as zero.
func indexTime(b []byte) time.Time {
	return time.Unix(int64(binary.BigEndian.Uint64(b)), int64(binary.BigEndian.Uint32(b[8:]))).UTC()
}

func appendIndexTime(b []byte, t time.Time) []byte {
	b = binary.BigEndian.AppendUint64(b, uint64(t.Unix()))
	return binary.BigEndian.AppendUint32(b, uint32(t.Nanosecond()))
}

func appendIndexRecord(b []byte, rel string, f filestat.Stat, sum mdstore.MemorySummary, prefix int, fields []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(rel)))
	b = append(b, rel...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(sum.Type)))
	b = append(b, sum.Type...)
	b = binary.BigEndian.AppendUint64(b, uint64(f.Size))
	b = binary.BigEndian.AppendUint64(b, uint64(f.Mtime))
	b = appendIndexTime(b, sum.IngestionTime)
	b = appendIndexTime(b, sum.ObservationDue)
	b = binary.BigEndian.AppendUint16(b, uint16(prefix))
	b = binary.BigEndian.AppendUint64(b, sum.BriefHash)
	b = binary.AppendUvarint(b, uint64(len(fields)))
	return append(b, fields...)
}

// indexedFiles lists the record files of folders and leaves out those that
// the memory index shows to lie outside the listing (outside reports that
// of an entry that holds the file as it is). It returns the files to read, sorted,
// and the index update that records what reading them finds.
//
// The index keeps a folder's entries in the order the folder lists its
// files, which changes little from run to run, so most entries are found
// where the previous one ended, in memory order; the others by a hash of
// the name.
func indexedFiles(s *mdstore.Store, folders []string, outside func(r indexRecord, f *filestat.Stat) bool) ([]string, *indexUpdate, error) {
	up, err := scanFolders(s, folders)
	if err != nil {
		return nil, nil, err
	}
	return up.match(func(folder string) []byte { return readMemoryIndex(s, folder) }, outside), up, nil
}

// scanFolders states the files of folders, for an index update.
func scanFolders(s *mdstore.Store, folders []string) (*indexUpdate, error) {
	up := &indexUpdate{prefix: s.DedupPrefix()}
	for _, dir := range folders {
		files, err := filestat.Scan(s.Path(dir), mdstore.IsRecordName)
		if err != nil {
			return nil, err
		}
		up.folders = append(up.folders, &scannedFolder{dir: dir, files: files, skip: make([]bool, len(files))})
	}
	return up, nil
}

// files is how many files the folders hold.
func (up *indexUpdate) files() int {
	n := 0
	for _, f := range up.folders {
		n += len(f.files)
	}
	return n
}

// match is indexedFiles' second step: the entries of each folder's index
// (its bytes, as index, readMemoryIndex, returns them) matched with the
// files as stated, and the files to read.
func (up *indexUpdate) match(index func(folder string) []byte, outside func(r indexRecord, f *filestat.Stat) bool) []string {
	for _, f := range up.folders {
		data := index(f.dir)
		f.dirty = data == nil && len(f.files) > 0 // no index yet: write one
		eachIndexRecord(data, func(r indexRecord) {
			i, ok := f.find(r.rel[bytes.LastIndexByte(r.rel, '/')+1:])
			if !ok || f.files[i].Record != nil || !f.files[i].Regular || f.files[i].Size != r.size || f.files[i].Mtime != r.mtime || r.prefix != up.prefix {
				f.dirty = true // gone, changed, a second entry, or another dedup prefix: dropped
				return
			}
			f.files[i].Record = r.raw
			f.skip[i] = outside(r, &f.files[i])
		})
	}
	type file struct {
		rel string
		ref fileRef
	}
	var read []file
	for _, f := range up.folders {
		for i := range f.files {
			if !f.skip[i] {
				read = append(read, file{f.dir + "/" + f.files[i].Name, fileRef{f, i}})
			}
		}
	}
	sort.Slice(read, func(i, j int) bool { return read[i].rel < read[j].rel })
	rels := make([]string, len(read))
	up.read = make([]fileRef, len(read))
	for i, f := range read {
		rels[i], up.read[i] = f.rel, f.ref
	}
	return rels
}

// scannedFolder is a folder's files as a listing found them.
type scannedFolder struct {
	dir   string
	files []filestat.Stat // in the folder's own order
	skip  []bool          // the index shows the file lies outside the listing
	next  int             // where the next index entry is expected
	dirty bool            // its index file is to be written
	pos   map[uint64]int
	seed  maphash.Seed
}

// find returns the place of a file name in files: first where the previous
// entry ended, then by a 64-bit hash of the name (built on first need; a
// collision only makes a file read again).
func (f *scannedFolder) find(name []byte) (int, bool) {
	for i := f.next; i < len(f.files) && i < f.next+4; i++ {
		if f.files[i].Name == string(name) {
			f.next = i + 1
			return i, true
		}
	}
	if f.pos == nil {
		f.seed = maphash.MakeSeed()
		f.pos = make(map[uint64]int, len(f.files))
		for i := range f.files {
			f.pos[maphash.String(f.seed, f.files[i].Name)] = i
		}
	}
	i, ok := f.pos[maphash.Bytes(f.seed, name)]
	if !ok || f.files[i].Name != string(name) {
		return 0, false
	}
	f.next = i + 1
	return i, true
}

// indexUpdate is the memory index being rewritten by a listing.
type indexUpdate struct {
	prefix  int // the dedup prefix the briefs are hashed with
	folders []*scannedFolder
	read    []fileRef // the files the listing reads, in its order
}

// fileRef is one file of a scanned folder.
type fileRef struct {
	folder *scannedFolder
	i      int
}

// add records what reading the listing's i-th file found.
func (up *indexUpdate) add(i int, m *mdstore.Memory) {
	ref := up.read[i]
	up.learn(&ref.folder.files[ref.i], ref.folder.dir+"/"+ref.folder.files[ref.i].Name, m)
}

// learn records what reading the file f (at rel) found, unless the index
// holds it already.
func (up *indexUpdate) learn(f *filestat.Stat, rel string, m *mdstore.Memory) {
	if f.Regular && f.Record == nil {
		fields, ok := mdstore.PackMemory(m)
		if !ok {
			fields = nil
		}
		f.Record = appendIndexRecord(nil, rel, *f, m.Summary(up.prefix), up.prefix, fields)
		dir := rel[:max(strings.LastIndexByte(rel, '/'), 0)]
		for _, folder := range up.folders {
			if folder.dir == dir {
				folder.dirty = true
			}
		}
	}
}

// save writes the index files of the folders that changed (best effort: a
// cache that cannot be written only costs speed next time), each with its
// folder's entries in the folder's order.
//
// The files the listing read are the ones a run that follows may move
// away: those that are gone by now are left out, so that the next listing
// finds every entry where the previous one ended.
func (up *indexUpdate) save(s *mdstore.Store) {
	for _, ref := range up.read {
		f := &ref.folder.files[ref.i]
		if f.Record != nil {
			if _, err := os.Lstat(s.Path(ref.folder.dir + "/" + f.Name)); err != nil {
				f.Record, ref.folder.dirty = nil, true
			}
		}
	}
	if !slices.ContainsFunc(up.folders, func(f *scannedFolder) bool { return f.dirty }) {
		return
	}
	// The single index file of older versions, where the folder goes: an
	// unlink never removes a folder another save just made there.
	_ = syscall.Unlink(filepath.Join(s.Dir, memoryIndexDir))
	removeStaleTemps(filepath.Join(s.Dir, memoryIndexDir))
	for _, f := range up.folders {
		if !f.dirty {
			continue
		}
		_ = durable.WriteFileWith(filepath.Join(s.Dir, memoryIndexFile(f.dir)), 0o644, false, func(w io.Writer) error {
			if _, err := io.WriteString(w, indexMagic); err != nil {
				return err
			}
			for i := range f.files {
				if _, err := w.Write(f.files[i].Record); err != nil {
					return err
				}
			}
			return nil
		})
		f.dirty = false
	}
}

// staleTemp is how old a temporary file of an index write must be to be
// taken for one a killed process left: a write in progress is far younger.
const staleTemp = time.Minute

// removeStaleTemps removes the temporary files of index writes that a
// process killed while writing left in dir.
func removeStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".tmp-") || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleTemp {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// KnownMemories is what the memory index knows of the files of some memory
// folders, checked against the files as they are now (one stat each).
// Known holds, in the index's order, the store-relative path and packed
// fields of each regular file with no other hard link whose size and mtime
// the index holds (each file once); Stale lists the others, sorted, for
// the caller to read and Learn. Save writes the index again when something
// was learned or dropped, so a missing, damaged or stale index is repaired
// by the reading it caused.
type KnownMemories struct {
	Known []KnownMemory
	Stale []string
	s     *mdstore.Store
	up    *indexUpdate
	stale map[string]int // place in Stale, by path; made on first Learn
	known map[string]int // place in Known, by path; made when a known file is learned
}

// KnownMemory is a file the memory index knows as it is.
type KnownMemory struct {
	Rel string // store-relative path
	PackedMemory
}

// PackedMemory is a record as the memory index keeps it.
type PackedMemory struct {
	Type          string
	IngestionTime time.Time      // in UTC
	Fields        []byte         // PackMemory's
	stat          *filestat.Stat // the file as the listing stated it
}

// Memories reads the memory index for the files of folders (store-
// relative, as MemoryFolders gives them). With mapped, the index files are
// mapped instead of read (a tenth of a second less at 100,000 entries);
// their mapping lives as long as the process, so a process should ask
// for it once, as the live listing does when it opens.
func Memories(s *mdstore.Store, folders []string, mapped bool) (*KnownMemories, error) {
	up, err := scanFolders(s, folders)
	if err != nil {
		return nil, err
	}
	index := func(folder string) []byte { return readMemoryIndex(s, folder) }
	if mapped {
		index = func(folder string) []byte { return mappedMemoryIndex(s, folder) }
	}
	k := &KnownMemories{s: s, Known: make([]KnownMemory, 0, up.files()), up: up}
	var types internedTypes
	k.Stale = up.match(index, func(r indexRecord, f *filestat.Stat) bool {
		if r.fields == nil || f.Linked {
			return false
		}
		k.Known = append(k.Known, KnownMemory{string(r.rel), PackedMemory{Type: types.of(r.typ), IngestionTime: r.ingestion, Fields: r.fields, stat: f}})
		return true
	})
	return k, nil
}

// Learn records in the index what reading the file rel found: a stale
// file, or a known one whose packed fields the caller found damaged.
func (k *KnownMemories) Learn(rel string, m *mdstore.Memory) {
	if k.stale == nil {
		k.stale = make(map[string]int, len(k.Stale))
		for i, r := range k.Stale {
			k.stale[r] = i
		}
	}
	if i, ok := k.stale[rel]; ok {
		k.up.add(i, m)
		return
	}
	if k.known == nil {
		k.known = make(map[string]int, len(k.Known))
		for i, km := range k.Known {
			k.known[km.Rel] = i
		}
	}
	if i, ok := k.known[rel]; ok {
		st := k.Known[i].stat
		st.Record = nil
		k.up.learn(st, rel, m)
	}
}

// Save writes the index if it changed (best effort, as a listing does).
func (k *KnownMemories) Save() { k.up.save(k.s) }

// internedTypes gives one string per memory type.
type internedTypes struct{ other map[string]string }

func (t *internedTypes) of(b []byte) string {
	for _, typ := range mdstore.MemoryTypes {
		if typ == string(b) {
			return typ
		}
	}
	if s, ok := t.other[string(b)]; ok {
		return s
	}
	if t.other == nil {
		t.other = map[string]string{}
	}
	s := string(b)
	t.other[s] = s
	return s
}
