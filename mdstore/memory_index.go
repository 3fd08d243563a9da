package mdstore

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"time"
)

// The memory index is a cache of (size, mtime) → (type, ingestion_time) for
// memory files, in .curator/.cache/memory-index (git-ignored). It lets a
// windowed listing skip reading files that lie outside the window, so an
// hourly run costs one stat per stored entry plus the work of its window,
// not a YAML parse of the whole inbox. A file whose size or mtime changed is
// read again; a missing or corrupt cache only makes the listing slower.

const memoryIndexPath = ".cache/memory-index"

type indexEntry struct {
	size, mtime int64
	typ         string
	ingestion   time.Time
}

type memoryIndex struct {
	entries map[string]indexEntry
	dirty   bool
}

// indexMagic starts the index file (its format: per entry the path, size,
// mtime, type and ingestion time, in binary).
const indexMagic = "curator-memory-index-2\n"

func (s *Store) loadMemoryIndex() *memoryIndex {
	ix := &memoryIndex{entries: map[string]indexEntry{}}
	data, err := os.ReadFile(filepath.Join(s.Dir, memoryIndexPath))
	if err != nil || !bytes.HasPrefix(data, []byte(indexMagic)) {
		return ix
	}
	b := data[len(indexMagic):]
	str := func() (string, bool) {
		if len(b) < 2 {
			return "", false
		}
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			return "", false
		}
		v := string(b[2 : 2+n])
		b = b[2+n:]
		return v, true
	}
	for len(b) > 0 {
		rel, ok1 := str()
		typ, ok2 := str()
		if !ok1 || !ok2 || len(b) < 28 {
			return &memoryIndex{entries: map[string]indexEntry{}} // damaged: start over
		}
		e := indexEntry{
			typ:   typ,
			size:  int64(binary.BigEndian.Uint64(b)),
			mtime: int64(binary.BigEndian.Uint64(b[8:])),
			ingestion: time.Unix(int64(binary.BigEndian.Uint64(b[16:])),
				int64(binary.BigEndian.Uint32(b[24:]))).UTC(),
		}
		b = b[28:]
		ix.entries[rel] = e
	}
	return ix
}

// lookup returns the cached entry of rel when the file's size and mtime still match.
func (ix *memoryIndex) lookup(rel string, fi os.FileInfo) (indexEntry, bool) {
	e, ok := ix.entries[rel]
	if !ok || e.size != fi.Size() || e.mtime != fi.ModTime().UnixNano() {
		return e, false
	}
	return e, true
}

func (ix *memoryIndex) put(rel string, fi os.FileInfo, m *Memory) {
	e := indexEntry{size: fi.Size(), mtime: fi.ModTime().UnixNano(), typ: m.Type, ingestion: m.IngestionTime}
	if old, ok := ix.entries[rel]; !ok || old != e {
		ix.entries[rel] = e
		ix.dirty = true
	}
}

// keep drops the entries of files that no longer exist.
func (ix *memoryIndex) keep(present map[string]bool, folders []string) {
	for rel := range ix.entries {
		if !present[rel] && inFolders(rel, folders) {
			delete(ix.entries, rel)
			ix.dirty = true
		}
	}
}

func inFolders(rel string, folders []string) bool {
	for _, f := range folders {
		if filepath.ToSlash(filepath.Dir(rel)) == f {
			return true
		}
	}
	return false
}

func (s *Store) saveMemoryIndex(ix *memoryIndex) error {
	if !ix.dirty {
		return nil
	}
	b := make([]byte, 0, len(indexMagic)+len(ix.entries)*80)
	b = append(b, indexMagic...)
	for rel, e := range ix.entries {
		b = binary.BigEndian.AppendUint16(b, uint16(len(rel)))
		b = append(b, rel...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(e.typ)))
		b = append(b, e.typ...)
		b = binary.BigEndian.AppendUint64(b, uint64(e.size))
		b = binary.BigEndian.AppendUint64(b, uint64(e.mtime))
		b = binary.BigEndian.AppendUint64(b, uint64(e.ingestion.Unix()))
		b = binary.BigEndian.AppendUint32(b, uint32(e.ingestion.Nanosecond()))
	}
	return writeFile(filepath.Join(s.Dir, memoryIndexPath), b, 0o644, false)
}
