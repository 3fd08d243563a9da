package mdstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// DirName is the name of the store folder.
const DirName = ".curator"

// ErrNoStore means no .curator folder was found.
var ErrNoStore = errors.New("no curator store here (run `curator init`, or pass --store)")

// NotStoreError means a folder named as the store is not one: it lacks
// config.yaml or the store's folders.
type NotStoreError struct {
	// Dir is the absolute path of the folder.
	Dir string
	// Missing is what it lacks.
	Missing string
}

func (e *NotStoreError) Error() string {
	return fmt.Sprintf("%s is not a curator store (%s): expected a %s folder holding config.yaml and memory/, context/ or pipelines/; run `curator init` to create one",
		e.Dir, e.Missing, DirName)
}

// storeFolders are the top folders of a store; a store holds at least one.
var storeFolders = []string{"memory", "context", "pipelines"}

// checkStore returns a *NotStoreError unless dir has a store's layout.
func checkStore(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return &NotStoreError{Dir: dir, Missing: "no such folder"}
	case !fi.IsDir():
		return &NotStoreError{Dir: dir, Missing: "not a folder"}
	}
	if fi, err := os.Stat(filepath.Join(dir, "config.yaml")); err != nil || !fi.Mode().IsRegular() {
		return &NotStoreError{Dir: dir, Missing: "no config.yaml"}
	}
	for _, f := range storeFolders {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil && fi.IsDir() {
			return nil
		}
	}
	return &NotStoreError{Dir: dir, Missing: "none of memory/, context/, pipelines/"}
}

// Store is an opened .curator folder.
type Store struct {
	// Dir is the absolute path of the .curator folder.
	Dir string
	// Config is the store's config.yaml, read and checked when it was
	// opened; the use-cases take their settings from it.
	Config config.Config
	// Now is the store's clock; tests replace it.
	Now func() time.Time
	// caches are cache writes queued until a run's last sync (WriteCaches),
	// by cache file: a later write of the same file replaces an earlier one.
	caches map[string]func()
	// written are the files that runs wrote or removed since the last
	// WriteCaches, for the caches that describe them.
	written map[string]bool
	// bulletsRead are the bullet files runs read since the last
	// WriteCaches: the bullet index checks that it holds them as they are.
	bulletsRead   map[string]bool
	bulletsReadMu sync.Mutex
	// headFolders: HEAD's category trees as the listing of the branches'
	// bullet names saw them, for the run's commit (noteCommit).
	headFolders *headFolders
}

// WriteCaches writes the caches a run has queued: the object cache of its
// commit and the memory index of a listing made with DeferIndex. Save does
// it after its last sync, so that the sync does not wait for data that
// needs no durability (the kernel writes it back soon after); call it
// after a deferred listing that no Save follows.
func (s *Store) WriteCaches() {
	writes := make([]func(), 0, len(s.caches))
	for _, w := range s.caches {
		writes = append(writes, w)
	}
	s.caches = nil
	parallel.For(len(writes), func(i int) { writes[i]() })
	s.written = nil
	s.bulletsReadMu.Lock()
	s.bulletsRead = nil
	s.bulletsReadMu.Unlock()
}

// noteWritten records that a run wrote or removed a file (store-relative).
func (s *Store) noteWritten(rel string) {
	if s.written == nil {
		s.written = map[string]bool{}
	}
	s.written[rel] = true
}

// noteBulletRead records that a run read a bullet file.
func (s *Store) noteBulletRead(rel string) {
	s.bulletsReadMu.Lock()
	if s.bulletsRead == nil {
		s.bulletsRead = map[string]bool{}
	}
	s.bulletsRead[rel] = true
	s.bulletsReadMu.Unlock()
}

// bulletsReadPaths returns the bullet files runs read since the last
// WriteCaches, sorted.
func (s *Store) bulletsReadPaths() []string {
	s.bulletsReadMu.Lock()
	defer s.bulletsReadMu.Unlock()
	out := make([]string, 0, len(s.bulletsRead))
	for p := range s.bulletsRead {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// writtenPaths returns the files runs wrote or removed since the last
// WriteCaches, sorted.
func (s *Store) writtenPaths() []string {
	out := make([]string, 0, len(s.written))
	for p := range s.written {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// queueCache queues the write of a cache file (store-relative path).
func (s *Store) queueCache(path string, write func()) {
	if s.caches == nil {
		s.caches = map[string]func(){}
	}
	s.caches[path] = write
}

// Find walks up from start to the nearest folder holding .curator and
// returns the .curator path.
func Find(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, DirName)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoStore
		}
		dir = parent
	}
}

// Open opens the store at dir: the .curator folder itself, or a folder
// holding one. A folder without a store's layout (config.yaml and its
// folders) is a *NotStoreError, so that nothing is ever written into a
// folder that is not a store.
func Open(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := checkStore(abs); err != nil {
		inner := filepath.Join(abs, DirName)
		if checkStore(inner) != nil {
			return nil, err
		}
		abs = inner
	}
	cfg, err := config.Load(filepath.Join(abs, config.FileName))
	if err != nil {
		return nil, err
	}
	return &Store{Dir: abs, Config: cfg, Now: func() time.Time { return time.Now().UTC() }}, nil
}

// Folders that init creates.
var initFolders = []string{
	"context/bullets", "context/archive", "context/reflections/pending",
	"context/reflections/merged", "context/log", "context/metrics",
	"memory/inbox", "memory/confirmed/fact", "memory/confirmed/concept",
	"memory/confirmed/lesson", "memory/trash", "pipelines",
}

// gitignore keeps the store's private working files out of git.
const gitignore = ".lock\n.journal/\n.cache/\n"

// gitattributes has git merge the store's records with curator's merge
// driver (registered in the repository's config by RegisterMergeDriver);
// where the driver is not registered, git merges them as text.
const gitattributes = "# Records are merged record by record: `curator merge-driver` (see merge.curator in .git/config).\n" +
	"*.md merge=curator\n*.json merge=curator\n"

// Init creates a store in parent/.curator (when absent) with config.yaml and
// its folders, and a git repository around it when there is none. It reports
// what it created. Existing files are never overwritten.
func Init(parent string) (*Store, []string, error) {
	dir := filepath.Join(parent, DirName)
	var created []string
	for _, f := range initFolders {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if _, err := os.Stat(p); os.IsNotExist(err) {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return nil, nil, err
			}
			// Git keeps no empty folders; a .keep file keeps the layout visible.
			if err := WriteFileAtomic(filepath.Join(p, ".keep"), nil, 0o644); err != nil {
				return nil, nil, err
			}
		}
	}
	for name, content := range map[string]string{config.FileName: config.DefaultText, ".gitignore": gitignore, ".gitattributes": gitattributes} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); os.IsNotExist(err) {
			if err := WriteFileAtomic(p, []byte(content), 0o644); err != nil {
				return nil, nil, err
			}
			created = append(created, filepath.ToSlash(filepath.Join(DirName, name)))
		}
	}
	if _, err := git.PlainOpenWithOptions(parent, &git.PlainOpenOptions{DetectDotGit: true}); errors.Is(err, git.ErrRepositoryNotExists) {
		_, err := git.PlainInitWithOptions(parent, &git.PlainInitOptions{
			InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
		})
		if err != nil {
			return nil, nil, fmt.Errorf("creating git repository in %s: %w", parent, err)
		}
		created = append(created, ".git")
	} else if err != nil {
		return nil, nil, err
	}
	if err := RegisterMergeDriver(parent); err != nil {
		return nil, nil, err
	}
	s, err := Open(dir)
	return s, created, err
}

// MergeDriverCommand is what git runs to merge a store file: base, ours
// (where the result goes), theirs, and the file's path.
const MergeDriverCommand = "curator merge-driver %O %A %B %P"

// RegisterMergeDriver defines the merge driver `curator` in the config of
// the repository holding dir, unless it is defined already (a user's own
// definition is kept).
func RegisterMergeDriver(dir string) error {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return fmt.Errorf("registering the merge driver: %w", err)
	}
	cfg, err := repo.Config()
	if err != nil {
		return err
	}
	sub := cfg.Raw.Section("merge").Subsection("curator")
	if sub.Option("driver") != "" {
		return nil
	}
	sub.SetOption("name", "curator's record-level merge")
	sub.SetOption("driver", MergeDriverCommand)
	return repo.SetConfig(cfg)
}

// Path returns the absolute path of a store-relative slash path.
func (s *Store) Path(rel string) string {
	return filepath.Join(s.Dir, filepath.FromSlash(rel))
}

// takeLock takes the store's lock, waiting up to timeout, and finishes any
// run that crashed before it could (see recover).
func (s *Store) takeLock(timeout time.Duration) (*Lock, error) {
	l, err := lock(filepath.Join(s.Dir, ".lock"), timeout)
	if err != nil {
		return nil, err
	}
	if _, err := s.recover(); err != nil {
		l.Unlock()
		return nil, err
	}
	return l, nil
}

// LockTimeout is the configured wait for the lock (default 10s).
func (s *Store) LockTimeout() time.Duration {
	if s.Config.LockTimeout == 0 {
		return config.DefaultLockTimeout // a Store not opened from a folder
	}
	return time.Duration(s.Config.LockTimeout)
}
