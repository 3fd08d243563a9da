package storehealth

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/curator-dev/curator/history"
	"github.com/curator-dev/curator/internal/durable"
)

// cachePath is the store-relative file of the runs already summarised.
const cachePath = ".cache/store-health.json"

// cacheVersion changes whenever Run or summarise does: a cache of another
// version is rebuilt.
const cacheVersion = 1

// runCache is the history summarised up to Head: every commit of the walk,
// newest first along first parents, a curator run with what it did and
// another commit with only its hash (RunID "").
type runCache struct {
	Version int    `json:"version"`
	Head    string `json:"head"`
	Commits []Run  `json:"commits"`
}

// Walked is what reading the history cost: the commits read from git
// and those taken from the cache.
type Walked struct {
	Read   int `json:"read"`
	Cached int `json:"cached"`
}

// runsOf is every curator run of the store at dir, newest first along first
// parents: the commits since the cache's head read from git, the rest taken
// from the cache, which is written back when it changed. The first commit
// of the walk that the cache holds ends it: the cache holds the commits
// behind it too (a commit's first parents never change). A cache that is
// missing, damaged or of another version is rebuilt: deleting it only
// makes the next read slower.
func runsOf(storeDir string) (runs []Run, head string, w Walked, err error) {
	file := filepath.Join(storeDir, filepath.FromSlash(cachePath))
	var old runCache
	if data, err := os.ReadFile(file); err == nil {
		if json.Unmarshal(data, &old) != nil || old.Version != cacheVersion {
			old = runCache{}
		}
	}
	where := make(map[string]int, len(old.Commits))
	for i, c := range old.Commits {
		where[c.Commit] = i
	}
	var fresh []Run
	from := -1
	head, err = history.Walk(storeDir, time.Time{}, func(hash string) bool {
		i, ok := where[hash]
		if ok {
			from = i
		}
		return ok
	}, func(c history.Commit) error {
		w.Read++
		r, ok := summarise(c, readIn(storeDir))
		if !ok {
			r = Run{Commit: c.Hash}
		}
		fresh = append(fresh, r)
		return nil
	})
	if err != nil {
		return nil, "", w, err
	}
	all := fresh
	if from >= 0 {
		all = append(all, old.Commits[from:]...)
		w.Cached = len(old.Commits) - from
	}
	if head != old.Head || len(all) != len(old.Commits) {
		c := runCache{Version: cacheVersion, Head: head, Commits: all}
		if data, err := json.Marshal(c); err == nil {
			// a cache that cannot be written costs only time
			_ = os.MkdirAll(filepath.Dir(file), 0o755)
			_ = durable.WriteFile(file, data, 0o644, false)
		}
	}
	runs = make([]Run, 0, len(all))
	for _, r := range all {
		if r.RunID != "" {
			runs = append(runs, r)
		}
	}
	return runs, head, w, nil
}
