package mdstore

import (
	"os"
	"time"

	"github.com/curator-dev/curator/store"
)

// The run and its transaction are the store core's (package store); these
// are its names as the records' callers use them.
type (
	// Run is the files a command changes, its commit and the inputs it skipped.
	Run = store.Run
	// Changeset is every file change of one run.
	Changeset = store.Changeset
	// Change is one file change of a run.
	Change = store.Change
	// CommitInfo is what a run's commit says.
	CommitInfo = store.CommitInfo
	// InvalidFile is a record that could not be read, reported and left as it is.
	InvalidFile = store.InvalidFile
	// TxOptions are how a transaction takes the store and records its runs.
	TxOptions = store.TxOptions
	// SaveOption changes how one Save runs.
	SaveOption = store.SaveOption
	// SaveOptions control how a run's changeset is saved.
	SaveOptions = store.SaveOptions
	// LockError names the process that holds the store's lock.
	LockError = store.LockError
	// GitLockError names the lock file git holds.
	GitLockError = store.GitLockError
	// Recovered names a run that a crash left and the next one finished.
	Recovered = store.Recovered
)

// The errors of the store core.
var (
	ErrLocked          = store.ErrLocked
	ErrDetachedHead    = store.ErrDetachedHead
	ErrMergeInProgress = store.ErrMergeInProgress
	ErrNoRepository    = store.ErrNoRepository
	ErrGitSetting      = store.ErrGitSetting
	ErrGitLocked       = store.ErrGitLocked
)

// NewRun starts an empty run with a fresh id at the given time.
func NewRun(summary string, at time.Time) *Run { return store.NewRun(summary, at) }

// NewRunID is a sortable, unique run id: UTC time plus random bits.
func NewRunID(at time.Time) string { return store.NewRunID(at) }

// AfterStep calls fn after each step of a save ("journal", "applied",
// "committed").
func AfterStep(fn func(step string)) SaveOption { return store.AfterStep(fn) }

// WriteFileAtomic writes data to path so that a crash leaves either the
// old or the new content.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return store.WriteFileAtomic(path, data, perm)
}
