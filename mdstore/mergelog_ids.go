package mdstore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// mergeLogIDsPath caches the bullet ids each merge-log file names, by the
// file's path, size, modification and change time: a run reads again only
// the logs written since (one per run), not the whole history.
const mergeLogIDsPath = ".cache/merge-log-ids"

// MergeLogIDs returns every bullet id the merge logs name (as
// ReadMergeLogs' lines' IDs), and the lines that cannot be read. The ids of
// a log that did not change since a run read it come from the cache; a log
// with unreadable lines is not cached, so it is reported every time.
func (s *Store) MergeLogIDs() ([]string, []*InvalidFile, error) {
	root := s.Path("context/log")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return filepath.SkipDir
			}
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(files)
	cache := s.readMergeLogIDs()
	kept := map[string]string{}
	dirty := false
	var ids []string
	var bad []*InvalidFile
	for _, f := range files {
		rel, _ := filepath.Rel(s.Dir, f)
		rel = filepath.ToSlash(rel)
		st, ok := statFile(f)
		key := rel + "\t" + strconv.FormatInt(st.size, 10) + "\t" + strconv.FormatInt(st.mtime, 10) + "\t" + strconv.FormatInt(st.ctime, 10)
		if line, hit := cache[key]; hit && ok {
			ids = append(ids, strings.Fields(line)...)
			kept[key] = line
			continue
		}
		dirty = true
		got, fileBad := readMergeLogIDs(f, rel)
		ids = append(ids, got...)
		bad = append(bad, fileBad...)
		if ok && len(fileBad) == 0 {
			kept[key] = strings.Join(got, " ")
		}
	}
	if dirty || len(kept) != len(cache) {
		s.queueCache(mergeLogIDsPath, func() { s.saveMergeLogIDs(kept) })
	}
	return ids, bad, nil
}

// readMergeLogIDs reads the ids of one merge-log file.
func readMergeLogIDs(path, rel string) ([]string, []*InvalidFile) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []*InvalidFile{{Path: rel, Msg: err.Error()}}
	}
	var ids []string
	var bad []*InvalidFile
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxRecordSize)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l MergeLogLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			bad = append(bad, &InvalidFile{Path: rel, Line: n, Msg: fmt.Sprintf("merge log line: %v", err)})
			continue
		}
		for _, id := range l.IDs() {
			if id != "" {
				ids = append(ids, id)
			}
		}
	}
	if err := sc.Err(); err != nil {
		bad = append(bad, &InvalidFile{Path: rel, Msg: fmt.Sprintf("merge log: %v", err)})
	}
	return ids, bad
}

// readMergeLogIDs reads the cache: "path\tsize\tmtime\tctime\tids" lines
// (an unusable cache is empty).
func (s *Store) readMergeLogIDs() map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile(filepath.Join(s.Dir, mergeLogIDsPath))
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.LastIndexByte(line, '\t'); i > 0 && strings.Count(line[:i], "\t") == 3 {
			out[line[:i]] = line[i+1:]
		}
	}
	return out
}

// saveMergeLogIDs writes the cache (best effort: a cache that cannot be
// written only costs speed next time).
func (s *Store) saveMergeLogIDs(kept map[string]string) {
	keys := make([]string, 0, len(kept))
	for k := range kept {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "\t" + kept[k] + "\n")
	}
	_ = writeFile(filepath.Join(s.Dir, mergeLogIDsPath), []byte(b.String()), 0o644, false)
}
