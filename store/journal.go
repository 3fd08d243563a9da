package store

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/curator-dev/curator/internal/gitcommit"
)

// The journal is how a run survives a crash. Before a run touches any file,
// its whole changeset and commit message are written to .journal/<run>.journal
// and synced once. The files are then changed without a sync each, the file
// system is synced once, the commit is made, and the journal is removed.
// A journal found at the next Lock is replayed (the changes are idempotent)
// and committed if HEAD does not already record its run.

type journalHeader struct {
	Commit  CommitInfo `json:"commit"`
	Changes int        `json:"changes"`
	NoGit   bool       `json:"no_commit,omitempty"`
}

type journalEntry struct {
	Path   string `json:"p"`
	From   string `json:"f,omitempty"`
	Delete bool   `json:"d,omitempty"`
	Root   bool   `json:"r,omitempty"`
	Size   int    `json:"n"`
}

func (s *Store) journalDir() string { return filepath.Join(s.Dir, ".journal") }

// writeJournal stores the changeset durably: one fsync for the whole run.
func (s *Store) writeJournal(c *Changeset, info CommitInfo, noCommit bool) (string, error) {
	path := filepath.Join(s.journalDir(), info.RunID+".journal")
	err := writeFileWith(path, 0o644, true, func(w io.Writer) error {
		h, _ := json.Marshal(journalHeader{Commit: info, Changes: len(c.Changes), NoGit: noCommit})
		if _, err := w.Write(append(h, '\n')); err != nil {
			return err
		}
		for _, ch := range c.Changes {
			e, _ := json.Marshal(journalEntry{Path: ch.Path, From: ch.From, Delete: ch.Delete, Root: ch.Root, Size: len(ch.Data)})
			if _, err := w.Write(append(e, '\n')); err != nil {
				return err
			}
			if _, err := w.Write(ch.Data); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("writing journal: %w", err)
	}
	return path, nil
}

func readJournal(path string) (*Changeset, journalHeader, error) {
	var h journalHeader
	f, err := os.Open(path)
	if err != nil {
		return nil, h, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	line, err := r.ReadBytes('\n')
	if err != nil {
		return nil, h, fmt.Errorf("journal %s: %w", path, err)
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, h, fmt.Errorf("journal %s: %w", path, err)
	}
	c := &Changeset{}
	for i := 0; i < h.Changes; i++ {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return nil, h, fmt.Errorf("journal %s: entry %d: %w", path, i+1, err)
		}
		var e journalEntry
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, h, fmt.Errorf("journal %s: entry %d: %w", path, i+1, err)
		}
		data := make([]byte, e.Size)
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, h, fmt.Errorf("journal %s: entry %d: %w", path, i+1, err)
		}
		if e.Delete {
			data = nil
		}
		c.Changes = append(c.Changes, Change{Path: e.Path, From: e.From, Delete: e.Delete, Root: e.Root, Data: data})
	}
	return c, h, nil
}

// Recovered lists the runs that recover finished.
type Recovered struct {
	RunID  string
	Commit string
}

// recover finishes every run that left a journal: it replays the changes and
// makes the run's commit when HEAD does not record it yet. Callers hold the lock.
func (s *Store) recover() ([]Recovered, error) {
	if err := gitcommit.RemoveStaleLocks(s.gitLockRecord()); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(s.journalDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".journal") {
			names = append(names, e.Name())
		} else if strings.HasPrefix(e.Name(), ".tmp-") {
			os.Remove(filepath.Join(s.journalDir(), e.Name())) // a journal never finished: its run never started
		}
	}
	sort.Strings(names)
	defer s.WriteCaches()
	var done []Recovered
	for _, n := range names {
		path := filepath.Join(s.journalDir(), n)
		c, h, err := readJournal(path)
		if err != nil {
			return done, err
		}
		if err := s.apply(c); err != nil {
			return done, fmt.Errorf("replaying %s: %w", path, err)
		}
		if err := syncAll(s.Dir); err != nil {
			return done, err
		}
		s.removeWriteTemps(c)
		r := Recovered{RunID: h.Commit.RunID}
		if !h.NoGit {
			recorded, err := s.runRecorded(h.Commit)
			if err != nil {
				return done, err
			}
			if recorded {
				// The commit was made; its index update may not have been.
				err = s.refreshIndex(c)
			} else {
				r.Commit, err = s.commit(c, h.Commit, nil)
			}
			if err != nil {
				return done, fmt.Errorf("finishing recovered run %s: %w", h.Commit.RunID, err)
			}
			if err := syncAll(s.Dir); err != nil {
				return done, err
			}
		}
		if err := os.Remove(path); err != nil {
			return done, err
		}
		done = append(done, r)
	}
	return done, nil
}

// removeWriteTemps removes what the killed run's atomic writes left beside
// the files it wrote: a temporary file .tmp-<name>-<random> in the file's
// folder (internal/durable). The replay has written those files whole, so
// the temporary ones hold nothing that is not on disk; left, they would sit
// in the store untracked, for a user's `git add -A` to commit. Only the
// temporaries of the run's own files in the store are removed (every
// writer there holds the lock), each folder read once.
func (s *Store) removeWriteTemps(c *Changeset) {
	names := map[string]map[string]bool{} // folder → names written in it
	for _, ch := range c.Changes {
		// A file outside the store (CLAUDE.md) may be written meanwhile by
		// a command that takes no lock: its temporaries are not looked at.
		if ch.Delete || ch.Root {
			continue
		}
		target := filepath.Join(s.Dir, filepath.FromSlash(ch.Path))
		dir := filepath.Dir(target)
		if names[dir] == nil {
			names[dir] = map[string]bool{}
		}
		names[dir][filepath.Base(target)] = true
	}
	for dir, written := range names {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			rest, ok := strings.CutPrefix(e.Name(), ".tmp-")
			if !ok || !e.Type().IsRegular() {
				continue
			}
			if i := strings.LastIndexByte(rest, '-'); i > 0 && written[rest[:i]] {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}
