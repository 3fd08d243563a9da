package store

import (
	"fmt"
	"time"
)

// TxOptions are how a transaction takes the store and records its runs.
type TxOptions struct {
	// LockTimeout is how long Begin waits for another run's lock; nil
	// means the store's LockWait (config.yaml's lock_timeout), 0 no wait.
	LockTimeout *time.Duration
	// NoCommit changes the files and makes no commit.
	NoCommit bool
	// Command is the command line recorded in each commit's trailer.
	Command string
}

// Tx is one command's hold on the store: Begin takes the lock and finishes
// a run that crashed earlier, Save records runs, Close writes the caches
// the runs queued and releases the lock.
type Tx struct {
	Store *Store
	lock  *Lock
	opt   TxOptions
}

// Begin takes the store's lock, waiting as opt says, and recovers the
// journal of a run that crashed.
func (s *Store) Begin(opt TxOptions) (*Tx, error) {
	timeout := s.LockWait
	if opt.LockTimeout != nil {
		timeout = *opt.LockTimeout
	}
	l, err := s.takeLock(timeout)
	if err != nil {
		return nil, err
	}
	return &Tx{Store: s, lock: l, opt: opt}, nil
}

// SaveOption changes how one Save runs.
type SaveOption func(*SaveOptions)

// AfterStep calls fn after each step of a save ("journal", "applied",
// "committed"). Crash tests stop the process there; benchmarks time steps.
func AfterStep(fn func(step string)) SaveOption {
	return func(o *SaveOptions) {
		prev := o.Stage
		o.Stage = func(step string) {
			if prev != nil {
				prev(step)
			}
			fn(step)
		}
	}
}

// Save applies the run's changes and records them as one commit (none with
// NoCommit, or when nothing changed), and returns the commit hash.
func (t *Tx) Save(r *Run, opts ...SaveOption) (string, error) {
	o := SaveOptions{NoCommit: t.opt.NoCommit}
	for _, fn := range opts {
		fn(&o)
	}
	info := r.Commit
	if info.Command == "" {
		info.Command = t.opt.Command
	}
	changes := r.Changes
	if changes == nil {
		changes = &Changeset{}
	}
	return t.Store.save(changes, info, o)
}

// SaveStaged writes the files of a merge git is in the middle of (a merge,
// rebase or cherry-pick that stopped on the store's files) as the sides
// hold them, and stages them in git's index; it makes no commit, since
// git's own commit finishes the merge. The save is journalled as any
// other, so a crash is finished by the next run.
func (t *Tx) SaveStaged(r *Run, opts ...SaveOption) error {
	o := SaveOptions{}
	for _, fn := range opts {
		fn(&o)
	}
	o.NoCommit, o.Merged = true, true
	info := r.Commit
	if info.Command == "" {
		info.Command = t.opt.Command
	}
	if r.Changes == nil || r.Changes.Empty() {
		return nil
	}
	if _, err := t.Store.save(r.Changes, info, o); err != nil {
		return err
	}
	if err := t.Store.Stage(r.Changes); err != nil {
		return fmt.Errorf("staging the merged files: %w", err)
	}
	return nil
}

// Close writes the caches the transaction's runs and listings queued and
// releases the lock. It is safe to call more than once.
func (t *Tx) Close() {
	if t.lock == nil {
		return
	}
	t.Store.WriteCaches()
	t.lock.Unlock()
	t.lock = nil
}

// SaveStore commits every file of the store as it is on disk (init uses it
// so the new layout is in history).
func (t *Tx) SaveStore(summary string) (string, error) {
	now := t.Store.Now()
	return t.Store.CommitStore(CommitInfo{Summary: summary, RunID: NewRunID(now), At: now, Command: t.opt.Command})
}
