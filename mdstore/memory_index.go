package mdstore

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// The memory index is a cache of (size, mtime) → (type, ingestion_time) for
// memory files, in .curator/.cache/memory-index (git-ignored). It lets a
// windowed listing skip reading files that lie outside the window, so an
// hourly run costs one stat per stored entry plus the work of its window,
// not a YAML parse of the whole inbox. A file whose size or mtime changed is
// read again; a missing or corrupt cache only makes the listing slower.
//
// The file is read and rewritten as bytes: an entry that is still valid is
// copied as it is, so a store of 100,000 entries costs a copy, not 100,000
// decoded entries.

const memoryIndexPath = ".cache/memory-index"

// indexMagic starts the index file (its format: per entry the path, type,
// size, mtime and ingestion time, in binary).
const indexMagic = "curator-memory-index-2\n"

// indexRecord is one entry of the index file, as slices of it.
type indexRecord struct {
	rel, typ    []byte
	size, mtime int64
	ingestion   time.Time
	raw         []byte
}

// readMemoryIndex returns the index file's entries (nil when there is no
// usable index).
func (s *Store) readMemoryIndex() []byte {
	data, err := os.ReadFile(filepath.Join(s.Dir, memoryIndexPath))
	if err != nil || !bytes.HasPrefix(data, []byte(indexMagic)) {
		return nil
	}
	data = data[len(indexMagic):]
	if !eachIndexRecord(data, func(indexRecord) {}) {
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
		if !ok1 || !ok2 || len(b) < 28 {
			return false
		}
		r := indexRecord{
			rel: rel, typ: typ,
			size:  int64(binary.BigEndian.Uint64(b)),
			mtime: int64(binary.BigEndian.Uint64(b[8:])),
			ingestion: time.Unix(int64(binary.BigEndian.Uint64(b[16:])),
				int64(binary.BigEndian.Uint32(b[24:]))).UTC(),
		}
		b = b[28:]
		r.raw = start[:len(start)-len(b)]
		f(r)
	}
	return true
}

func appendIndexRecord(b []byte, rel string, f fileStat, m *Memory) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(rel)))
	b = append(b, rel...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Type)))
	b = append(b, m.Type...)
	b = binary.BigEndian.AppendUint64(b, uint64(f.size))
	b = binary.BigEndian.AppendUint64(b, uint64(f.mtime))
	b = binary.BigEndian.AppendUint64(b, uint64(m.IngestionTime.Unix()))
	return binary.BigEndian.AppendUint32(b, uint32(m.IngestionTime.Nanosecond()))
}

func (s *Store) writeMemoryIndex(entries []byte) error {
	b := make([]byte, 0, len(indexMagic)+len(entries))
	b = append(append(b, indexMagic...), entries...)
	return writeFile(filepath.Join(s.Dir, memoryIndexPath), b, 0o644, false)
}

// indexedFiles lists the record files of folders and leaves out those that
// the memory index shows to lie outside the listing (outside reports that
// of a type and an ingestion time). It returns the files to read, sorted,
// with their stats, and the index update that records what reading finds.
func (s *Store) indexedFiles(folders []string, outside func(typ string, at time.Time) bool) ([]string, []fileStat, *indexUpdate, error) {
	type folder struct {
		files []fileStat
		pos   map[uint64]int // hash of a file name → its place in files
		skip  []bool
	}
	// Names are found by a 64-bit hash and then compared: a collision only
	// makes a file read again.
	seed := maphash.MakeSeed()
	byDir := make(map[string]*folder, len(folders))
	for _, dir := range folders {
		files, err := scanFolder(s.Path(dir))
		if err != nil {
			return nil, nil, nil, err
		}
		f := &folder{files: files, pos: make(map[uint64]int, len(files)), skip: make([]bool, len(files))}
		for i, fs := range files {
			f.pos[maphash.String(seed, fs.name)] = i
		}
		byDir[dir] = f
	}
	old := s.readMemoryIndex()
	up := &indexUpdate{entries: make([]byte, 0, len(old)+4096)}
	eachIndexRecord(old, func(r indexRecord) {
		slash := bytes.LastIndexByte(r.rel, '/')
		f := byDir[string(r.rel[:max(slash, 0)])]
		if slash < 0 || f == nil {
			up.entries = append(up.entries, r.raw...) // a folder this listing does not cover
			return
		}
		name := r.rel[slash+1:]
		i, ok := f.pos[maphash.Bytes(seed, name)]
		if !ok || f.files[i].name != string(name) || f.files[i].indexed || !f.files[i].regular || f.files[i].size != r.size || f.files[i].mtime != r.mtime {
			up.dirty = true // gone, changed, or a second entry: dropped
			return
		}
		up.entries = append(up.entries, r.raw...)
		f.files[i].indexed = true
		f.skip[i] = outside(string(r.typ), r.ingestion)
	})
	type file struct {
		rel  string
		stat fileStat
	}
	var read []file
	for _, dir := range folders {
		f := byDir[dir]
		for i, fs := range f.files {
			if !f.skip[i] {
				read = append(read, file{dir + "/" + fs.name, fs})
			}
		}
	}
	sort.Slice(read, func(i, j int) bool { return read[i].rel < read[j].rel })
	rels, stats := make([]string, len(read)), make([]fileStat, len(read))
	for i, f := range read {
		rels[i], stats[i] = f.rel, f.stat
	}
	return rels, stats, up, nil
}

// indexUpdate is the memory index being rewritten by a listing.
type indexUpdate struct {
	entries []byte
	dirty   bool
}

// add records a file the listing read (unless the index holds it already).
func (up *indexUpdate) add(rel string, f fileStat, m *Memory) {
	if f.regular && !f.indexed {
		up.entries = appendIndexRecord(up.entries, rel, f, m)
		up.dirty = true
	}
}

// save writes the index if it changed (best effort: a cache that cannot be
// written only costs speed next time).
func (up *indexUpdate) save(s *Store) {
	if up.dirty {
		_ = s.writeMemoryIndex(up.entries)
	}
}
