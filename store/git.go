package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/curator-dev/curator/internal/gitcommit"
	"github.com/go-git/go-git/v5/plumbing"
)

// The errors of a commit that was refused or could not be made, from the
// git plumbing (internal/gitcommit).
var (
	ErrDetachedHead    = gitcommit.ErrDetachedHead
	ErrMergeInProgress = gitcommit.ErrMergeInProgress
	ErrNoRepository    = gitcommit.ErrNoRepository
	// ErrGitSetting means a git setting of the repository is one curator
	// cannot commit under without breaking the user's repository.
	ErrGitSetting = gitcommit.ErrSetting
	// ErrGitLocked means another git process holds a lock curator needs:
	// nothing was changed; the run can be tried again.
	ErrGitLocked = gitcommit.ErrLocked
)

// GitLockError names the lock file git holds.
type GitLockError = gitcommit.LockError

// CommitInfo is what a run's commit says.
type CommitInfo struct {
	// Summary is the first line.
	Summary string `json:"summary"`
	// Decisions are the run's decisions, one per line of the body.
	Decisions []string `json:"decisions,omitempty"`
	RunID     string   `json:"run_id"`
	// Command is the command line that made the run.
	Command string    `json:"command"`
	At      time.Time `json:"at"`
	// MergeParent, when set, makes the commit a merge of that commit (a
	// full hash) into the branch, which must still be at Tip.
	MergeParent string `json:"merge_parent,omitempty"`
	Tip         string `json:"tip,omitempty"`
	// FastForward moves the branch to MergeParent instead of committing.
	FastForward bool `json:"fast_forward,omitempty"`
}

// Message renders the commit message: summary, decisions, trailers.
func (c CommitInfo) Message() string {
	var b strings.Builder
	b.WriteString(c.Summary)
	b.WriteString("\n\n")
	for _, d := range c.Decisions {
		b.WriteString(d)
		b.WriteByte('\n')
	}
	if len(c.Decisions) > 0 {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Curator-Run: %s\nCurator-Command: %s\n", c.RunID, c.Command)
	return b.String()
}

// objectCachePath is the store-relative file of the git object cache
// (git-ignored; see gitcommit.Options.ObjectCache).
const objectCachePath = ".cache/objects"

// OpenRepo opens the git repository holding the store.
func (s *Store) OpenRepo() (*gitcommit.Repo, error) { return gitcommit.Open(s.Dir) }

// gitLockRecord is where a run records the git locks it takes, before
// taking them, so that the next run (holding the store's lock, so no run
// writing the record is alive) removes those a kill left, and only those
// (gitcommit.RemoveStaleLocks).
func (s *Store) gitLockRecord() string { return filepath.Join(s.journalDir(), "git-locks.json") }

// commitOptions are the settings of the store's commits.
func (s *Store) commitOptions(at time.Time) gitcommit.Options {
	if at.IsZero() {
		at = s.Now()
	}
	return gitcommit.Options{
		Author:      s.Author,
		When:        at,
		LockTimeout: s.LockWait,
		ObjectCache: filepath.Join(s.Dir, objectCachePath),
		LockRecord:  s.gitLockRecord(),
		SaveCache:   func(write func()) { s.QueueCache(objectCachePath, write) },
	}
}

// gitChanges is the changeset as the git plumbing takes it.
func gitChanges(c *Changeset) []gitcommit.Change {
	out := make([]gitcommit.Change, len(c.Changes))
	for i, ch := range c.Changes {
		out[i] = gitcommit.Change{Path: ch.Path, From: ch.From, Data: ch.Data, Delete: ch.Delete, Root: ch.Root}
	}
	return out
}

// commit records the changeset as one commit on HEAD's branch, applying
// the files (apply) once the commit's objects are written; see
// gitcommit.Commit for the order and the locks. An error before apply
// satisfies nothingChanged.
func (s *Store) commit(c *Changeset, info CommitInfo, apply func() error) (string, error) {
	r, err := s.OpenRepo()
	if err != nil {
		return "", &unchangedError{err}
	}
	opt := s.commitOptions(info.At)
	if info.MergeParent != "" {
		opt.MergeParent = plumbing.NewHash(info.MergeParent)
		opt.Tip = plumbing.NewHash(info.Tip)
		opt.FastForward = info.FastForward
	}
	return gitcommit.Commit(r, gitChanges(c), info.Message(), apply, opt)
}

// unchangedError is an error that stopped a run before it changed a file.
type unchangedError struct{ err error }

func (e *unchangedError) Error() string { return e.err.Error() }
func (e *unchangedError) Unwrap() error { return e.err }

// nothingChanged reports whether err stopped a run before it changed a file.
func nothingChanged(err error) bool {
	var u *unchangedError
	return errors.As(err, &u) || gitcommit.NothingChanged(err)
}

// refreshIndex sets the index entries of a changeset's paths to the files'
// current content, for a run whose commit exists already.
func (s *Store) refreshIndex(c *Changeset) error {
	r, err := s.OpenRepo()
	if err != nil {
		return err
	}
	return gitcommit.RefreshIndex(r, gitChanges(c), s.commitOptions(time.Time{}))
}

// runRecorded reports whether a commit of run is on HEAD's branch, looking
// back over the commits made since the run started (a user may have
// committed on top of it before the run was recovered).
func (s *Store) runRecorded(info CommitInfo) (bool, error) {
	r, err := s.OpenRepo()
	if err != nil {
		return false, err
	}
	if info.FastForward {
		return r.HeadIs(plumbing.NewHash(info.MergeParent))
	}
	trailer := "\nCurator-Run: " + info.RunID + "\n"
	return r.Recorded(info.At, func(msg string) bool { return strings.Contains(msg, trailer) })
}

// CheckCommit tells early whether a commit could be made (repository,
// branch, no merge in progress, git settings curator can commit under), so
// a run can refuse before it changes anything.
func (s *Store) CheckCommit() error {
	r, err := s.OpenRepo()
	if err != nil {
		return err
	}
	return r.Check()
}

// RepoPlace is the git work tree's root folder around the store and the
// store's path in it (slashes, with a trailing slash; "" when the store is
// the root).
func (s *Store) RepoPlace() (root, prefix string, err error) {
	r, err := s.OpenRepo()
	if err != nil {
		return "", "", err
	}
	return r.Root(), r.Prefix(), nil
}

// Stage sets the index entries of the changeset's paths to the files as
// they are now (removing the entries of deleted files and any conflict
// stages of those paths), as `git add` does.
func (s *Store) Stage(c *Changeset) error {
	r, err := s.OpenRepo()
	if err != nil {
		return err
	}
	return gitcommit.Stage(r, gitChanges(c), s.commitOptions(time.Time{}))
}
