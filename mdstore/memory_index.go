package mdstore

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

func (s *Store) loadMemoryIndex() *memoryIndex {
	ix := &memoryIndex{entries: map[string]indexEntry{}}
	data, err := os.ReadFile(filepath.Join(s.Dir, memoryIndexPath))
	if err != nil {
		return ix
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 5 {
			continue
		}
		size, err1 := strconv.ParseInt(f[1], 10, 64)
		mtime, err2 := strconv.ParseInt(f[2], 10, 64)
		ing, err3 := time.Parse(time.RFC3339Nano, f[4])
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		ix.entries[f[0]] = indexEntry{size: size, mtime: mtime, typ: f[3], ingestion: ing.UTC()}
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
	var b bytes.Buffer
	for rel, e := range ix.entries {
		fmt.Fprintf(&b, "%s\t%d\t%d\t%s\t%s\n", rel, e.size, e.mtime, e.typ, e.ingestion.Format(time.RFC3339Nano))
	}
	return writeFile(filepath.Join(s.Dir, memoryIndexPath), b.Bytes(), 0o644, false)
}
