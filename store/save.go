package store

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// SaveOptions control how a run's changeset is saved.
type SaveOptions struct {
	// NoCommit changes the files and makes no commit.
	NoCommit bool
	// Stage, when set, is called after each step ("journal", "applied",
	// "committed"); crash tests use it to stop the process there.
	Stage func(step string)
	// Merged means the files are a merge of two commits' versions (sync,
	// resolve): they are stored as the sides hold them, so a record another
	// clone committed is not refused here for failing the read checks.
	Merged bool
}

// Save applies a run's changeset and records it as one commit, and returns
// the commit hash ("" when nothing changed or with NoCommit). The caller
// holds the lock. The order makes a crash at any point recoverable: journal
// (synced) → git's index.lock → objects → files → index → one sync →
// branch → index → one sync → journal removed (see commit).
func (s *Store) save(c *Changeset, info CommitInfo, opt SaveOptions) (string, error) {
	defer s.WriteCaches()
	if c.Empty() && info.MergeParent == "" {
		return "", nil
	}
	if s.Hooks.Refuse != nil {
		if err := s.Hooks.Refuse(c, info, opt.Merged || info.MergeParent != ""); err != nil {
			return "", err
		}
	}
	stage := opt.Stage
	if stage == nil {
		stage = func(string) {}
	}
	if !opt.NoCommit {
		if err := s.CheckCommit(); err != nil {
			return "", err
		}
	}
	if info.At.IsZero() {
		info.At = s.Now()
	}
	journal, err := s.writeJournal(c, info, opt.NoCommit)
	if err != nil {
		return "", err
	}
	stage("journal")
	apply := func() error {
		if err := s.apply(c); err != nil {
			return fmt.Errorf("applying run %s (its journal %s finishes it next time): %w", info.RunID, journal, err)
		}
		stage("applied")
		return nil
	}
	hash := ""
	if opt.NoCommit {
		if err := apply(); err != nil {
			return "", err
		}
		if err := syncAll(s.Dir); err != nil {
			return "", err
		}
	} else {
		// The commit applies the files once its objects are written; its
		// one sync makes the files, the objects and the index durable.
		// Until the journal goes, a crash is recovered by applying it again.
		if hash, err = s.commit(c, info, apply); err != nil {
			if nothingChanged(err) {
				// Stopped before any file changed (git busy, disk full
				// while writing objects): the run leaves nothing behind.
				os.Remove(journal)
			}
			return hash, err
		}
		// The branch and the index are durable before the journal goes.
		if err := syncAll(s.Dir); err != nil {
			return hash, err
		}
		if info.MergeParent == "" && s.Hooks.Committed != nil {
			s.Hooks.Committed(c, hash)
		}
	}
	stage("committed")
	if err := os.Remove(journal); err != nil {
		return hash, err
	}
	return hash, nil
}

// CommitStore commits every file under the store as it is on disk (used by
// init, so the new layout is in history). Only the store's files are added.
func (s *Store) CommitStore(info CommitInfo) (string, error) {
	c := &Changeset{}
	err := s.walkFiles(func(rel, p string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		c.Write(rel, data)
		return nil
	})
	if err != nil {
		return "", err
	}
	if info.At.IsZero() {
		info.At = s.Now()
	}
	defer s.WriteCaches()
	return s.commit(c, info, nil)
}

// walkFiles calls fn for every file of the store that belongs in history,
// with its store-relative slash path: the lock, the journal and the caches
// are left out.
func (s *Store) walkFiles(fn func(rel, path string, d fs.DirEntry) error) error {
	return filepath.WalkDir(s.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(s.Dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".journal" || rel == ".cache" {
				return filepath.SkipDir
			}
			return nil
		}
		if rel == ".lock" {
			return nil
		}
		return fn(rel, p, d)
	})
}
