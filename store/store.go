package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/curator-dev/curator/internal/gitcommit"
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

// Store is an opened .curator folder: its files, its lock, its journal and
// its commits. The records and their caches are the layers above it; they
// reach into its transaction only through Hooks.
type Store struct {
	// Dir is the absolute path of the .curator folder.
	Dir string
	// Now is the store's clock; tests replace it.
	Now func() time.Time
	// Author signs the store's commits (config.yaml's author).
	Author gitcommit.Signature
	// LockWait is how long Begin waits for another run's lock by default
	// (config.yaml's lock_timeout).
	LockWait time.Duration
	// Hooks are what the layers above add to the transaction.
	Hooks Hooks
	// caches are cache writes queued until a run's last sync (WriteCaches),
	// by cache file: a later write of the same file replaces an earlier one.
	caches map[string]func()
	// written are the files that runs wrote or removed since the last
	// WriteCaches, for the caches that describe them.
	written map[string]bool
}

// Hooks are the checks and bookkeeping that the layers above the store
// (records, ids, caches) register on it, so that its transaction calls
// them without knowing them.
type Hooks struct {
	// Refuse checks a run's changeset and commit before anything (even
	// the journal) is written; an error refuses the whole run. merged
	// means the files are a merge of two commits' versions (sync,
	// resolve), stored as the sides hold them.
	Refuse func(c *Changeset, info CommitInfo, merged bool) error
	// Committed is told of the commit a run just made on top of the
	// branch (not a merge, nor a recovered run).
	Committed func(c *Changeset, commit string)
	// CachesWritten runs after WriteCaches has written the queued caches.
	CachesWritten func()
}

// WriteCaches writes the caches a run has queued: the object cache of its
// commit and the indexes of the listings it made. Save does it after its
// last sync, so that the sync does not wait for data that needs no
// durability (the kernel writes it back soon after); call it after a
// deferred listing that no Save follows.
func (s *Store) WriteCaches() {
	writes := make([]func(), 0, len(s.caches))
	for _, w := range s.caches {
		writes = append(writes, w)
	}
	s.caches = nil
	parallel.For(len(writes), func(i int) { writes[i]() })
	s.written = nil
	if s.Hooks.CachesWritten != nil {
		s.Hooks.CachesWritten()
	}
}

// noteWritten records that a run wrote or removed a file (store-relative).
func (s *Store) noteWritten(rel string) {
	if s.written == nil {
		s.written = map[string]bool{}
	}
	s.written[rel] = true
}

// WrittenPaths returns the files runs wrote or removed since the last
// WriteCaches, sorted.
func (s *Store) WrittenPaths() []string {
	out := make([]string, 0, len(s.written))
	for p := range s.written {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// QueueCache queues the write of a cache file (store-relative path) until
// WriteCaches; a later write of the same file replaces an earlier one.
func (s *Store) QueueCache(path string, write func()) {
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

// DefaultLockWait is how long Begin waits for another run's lock unless
// LockWait says otherwise.
const DefaultLockWait = 10 * time.Second

// DefaultAuthor signs the commits unless Author says otherwise.
var DefaultAuthor = gitcommit.Signature{Name: "curator", Email: "curator@localhost"}

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
	return &Store{Dir: abs, Now: func() time.Time { return time.Now().UTC() }, Author: DefaultAuthor, LockWait: DefaultLockWait}, nil
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

// Init creates a store in parent/.curator (when absent) with config.yaml
// (holding config) and its folders, and a git repository around it when
// there is none. It reports what it created. Existing files are never
// overwritten.
func Init(parent, config string) (*Store, []string, error) {
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
	for name, content := range map[string]string{"config.yaml": config, ".gitignore": gitignore, ".gitattributes": gitattributes} {
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
