package cache

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/curator-dev/curator/mdstore"

	"github.com/curator-dev/curator/internal/durable"
)

// mergeLogIDsPath caches the bullet ids each merge-log file names, by the
// file's path, size, modification and change time: a run reads again only
// the logs written since (one per run), not the whole history.
const mergeLogIDsPath = ".cache/merge-log-ids"

// MergeLogIDs returns every bullet id the merge logs name (as
// ReadMergeLogs' lines' IDs), and the lines that cannot be read. The ids of
// a log that did not change since a run read it come from the cache; a log
// with unreadable lines is not cached, so it is reported every time. A
// process that asks again (the MCP server, at every query) keeps what it
// learnt of each log, by the same path, size and times, and reads the
// cache file only for a log it has not seen so.
func MergeLogIDs(s *mdstore.Store) ([]string, []*mdstore.InvalidFile, error) {
	files, err := s.MergeLogFiles()
	if err != nil {
		return nil, nil, err
	}
	seen := knownMergeLogs(s.Dir)
	var cache map[string]string // the cache file, read when seen misses
	read := false
	kept := make(map[string]string, len(files))
	dirty := false
	var ids []string
	var bad []*mdstore.InvalidFile
	for _, f := range files {
		rel, st := f.Rel, f.Stat
		key := rel + "\t" + strconv.FormatInt(st.Size, 10) + "\t" + strconv.FormatInt(st.Mtime, 10) + "\t" + strconv.FormatInt(st.Ctime, 10)
		line, hit := seen[key]
		if !hit && st.Regular {
			if !read {
				cache, read = readMergeLogIDCache(s), true
			}
			line, hit = cache[key]
		}
		if hit && st.Regular {
			ids = append(ids, strings.Fields(line)...)
			kept[key] = line
			continue
		}
		dirty = true
		got, fileBad := readMergeLogIDs(f.Path, rel)
		ids = append(ids, got...)
		bad = append(bad, fileBad...)
		if st.Regular && len(fileBad) == 0 {
			kept[key] = strings.Join(got, " ")
		}
	}
	rememberMergeLogs(s.Dir, kept)
	save := dirty || read && len(kept) != len(cache)
	if !read && !save {
		// All answered by what the process learnt: the cache file may
		// have gone since, or still hold logs removed since.
		_, err := os.Stat(filepath.Join(s.Dir, mergeLogIDsPath))
		save = err != nil || len(kept) != len(seen)
	}
	if save {
		s.QueueCache(mergeLogIDsPath, func() { saveMergeLogIDCache(s, kept) })
	}
	return ids, bad, nil
}

// mergeLogsSeen is, by store folder, the merge logs' ids the process
// learnt last, by the cache's key (path, size, times): facts about a file
// as it was stated, so any store value of the same folder may use them.
var mergeLogsSeen struct {
	sync.Mutex
	byDir map[string]map[string]string
}

func knownMergeLogs(dir string) map[string]string {
	mergeLogsSeen.Lock()
	defer mergeLogsSeen.Unlock()
	return mergeLogsSeen.byDir[dir]
}

func rememberMergeLogs(dir string, kept map[string]string) {
	mergeLogsSeen.Lock()
	defer mergeLogsSeen.Unlock()
	if mergeLogsSeen.byDir == nil {
		mergeLogsSeen.byDir = map[string]map[string]string{}
	}
	mergeLogsSeen.byDir[dir] = kept
}

// readMergeLogIDs reads the ids of one merge-log file.
func readMergeLogIDs(path, rel string) ([]string, []*mdstore.InvalidFile) {
	lines, bad := mdstore.ReadMergeLog(path, rel)
	var ids []string
	for _, l := range lines {
		for _, id := range l.IDs() {
			if id != "" {
				ids = append(ids, id)
			}
		}
	}
	return ids, bad
}

// readMergeLogIDCache reads the cache: "path\tsize\tmtime\tctime\tids" lines
// (an unusable cache is empty).
func readMergeLogIDCache(s *mdstore.Store) map[string]string {
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

// saveMergeLogIDCache writes the cache (best effort: a cache that cannot be
// written only costs speed next time).
func saveMergeLogIDCache(s *mdstore.Store, kept map[string]string) {
	keys := make([]string, 0, len(kept))
	for k := range kept {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "\t" + kept[k] + "\n")
	}
	_ = durable.WriteFile(filepath.Join(s.Dir, mergeLogIDsPath), []byte(b.String()), 0o644, false)
}
