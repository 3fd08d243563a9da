package mdstore

import (
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/internal/gitcommit"
	"github.com/curator-dev/curator/store"
)

// DirName is the name of the store folder.
const DirName = store.DirName

// MergeDriverCommand is what git runs to merge a store file.
const MergeDriverCommand = store.MergeDriverCommand

// ErrNoStore means no .curator folder was found.
var ErrNoStore = store.ErrNoStore

// NotStoreError means a folder named as the store is not one.
type NotStoreError = store.NotStoreError

// Store is an opened .curator folder: the store's files, lock, journal and
// commits (package store), with its settings (config.yaml) and the typed
// records and caches read from it.
type Store struct {
	*store.Store
	// Config is the store's config.yaml, read and checked when it was
	// opened; the use-cases take their settings from it.
	Config config.Config
	// bulletsRead are the bullet files runs read since the last
	// WriteCaches: the bullet index checks that it holds them as they are.
	bulletsRead   map[string]bool
	bulletsReadMu sync.Mutex
}

// Find walks up from start to the nearest folder holding .curator and
// returns the .curator path.
func Find(start string) (string, error) { return store.Find(start) }

// Open opens the store at dir (the .curator folder itself, or a folder
// holding one; anything else is a *NotStoreError) and loads its
// config.yaml.
func Open(dir string) (*Store, error) {
	core, err := store.Open(dir)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(filepath.Join(core.Dir, config.FileName))
	if err != nil {
		return nil, err
	}
	s := &Store{Store: core, Config: cfg}
	core.Author = gitcommit.Signature{Name: cfg.Author.Name, Email: cfg.Author.Email}
	core.LockWait = s.LockTimeout()
	core.Hooks = store.Hooks{Refuse: s.refuse, CachesWritten: s.forgetBulletsRead}
	return s, nil
}

// Init creates a store in parent/.curator (when absent) with the default
// config.yaml and its folders, and a git repository around it when there
// is none. It reports what it created. Existing files are never
// overwritten.
func Init(parent string) (*Store, []string, error) {
	core, created, err := store.Init(parent, config.DefaultText)
	if err != nil {
		return nil, nil, err
	}
	s, err := Open(core.Dir)
	return s, created, err
}

// RegisterMergeDriver defines the merge driver `curator` in the config of
// the repository holding dir, unless it is defined already.
func RegisterMergeDriver(dir string) error { return store.RegisterMergeDriver(dir) }

// Begin takes the store's lock, waiting as opt says, and recovers the
// journal of a run that crashed.
func (s *Store) Begin(opt TxOptions) (*Tx, error) {
	t, err := s.Store.Begin(opt)
	if err != nil {
		return nil, err
	}
	return &Tx{Tx: t, Store: s}, nil
}

// Tx is one command's hold on the store (see store.Tx), with the store's
// records.
type Tx struct {
	*store.Tx
	Store *Store
}

// refuse is the guard the store's transaction runs before a run writes
// anything: every record must read back as written (unless the files are
// a merge, stored as the sides hold them), and no secret is committed.
func (s *Store) refuse(c *Changeset, info CommitInfo, merged bool) error {
	if !merged {
		if err := s.refuseUnreadable(c); err != nil {
			return err
		}
	}
	return s.refuseSecrets(c, info)
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

// forgetBulletsRead starts a new set of read bullet files once the caches
// are written.
func (s *Store) forgetBulletsRead() {
	s.bulletsReadMu.Lock()
	s.bulletsRead = nil
	s.bulletsReadMu.Unlock()
}

// BulletsRead returns the bullet files runs read since the last
// WriteCaches, sorted.
func (s *Store) BulletsRead() []string {
	s.bulletsReadMu.Lock()
	defer s.bulletsReadMu.Unlock()
	out := make([]string, 0, len(s.bulletsRead))
	for p := range s.bulletsRead {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// LockTimeout is the configured wait for the lock (default 10s).
func (s *Store) LockTimeout() time.Duration {
	if s.Config.LockTimeout == 0 {
		return config.DefaultLockTimeout // a Store not opened from a folder
	}
	return time.Duration(s.Config.LockTimeout)
}
