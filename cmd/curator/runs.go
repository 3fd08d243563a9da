package main

import (
	"fmt"
	"os"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// lock takes the store's lock (waiting --lock-timeout, or the configured
// lock_timeout) and finishes any run that crashed earlier.
func (g globals) lock(s *mdstore.Store) (*mdstore.Lock, error) {
	timeout := s.LockTimeout()
	if g.LockTimeoutSet {
		timeout = g.LockTimeout
	}
	return s.Lock(timeout)
}

// openLocked opens the store and takes its lock; call unlock when done.
func (g globals) openLocked() (*mdstore.Store, func(), error) {
	s, err := g.openStore()
	if err != nil {
		return nil, nil, err
	}
	l, err := g.lock(s)
	if err != nil {
		return nil, nil, err
	}
	return s, func() { l.Unlock() }, nil
}

// save applies a run's changeset and commits it (unless --no-commit).
// CURATOR_CRASH_AT=journal|applied|committed makes the process die at that
// step: the crash-safety tests use it. CURATOR_TIMING=1 prints the time of
// each step on stderr.
func (g globals) save(s *mdstore.Store, cs *mdstore.Changeset, info mdstore.CommitInfo) (string, error) {
	if info.Command == "" {
		info.Command = commandLineOS()
	}
	crashAt, timing := os.Getenv("CURATOR_CRASH_AT"), os.Getenv("CURATOR_TIMING") != ""
	start := time.Now()
	opt := mdstore.SaveOptions{NoCommit: g.NoCommit, Stage: func(step string) {
		if timing {
			fmt.Fprintf(g.stderr, "curator: %-9s after %v\n", step, time.Since(start).Round(time.Millisecond))
		}
		if step == crashAt {
			fmt.Fprintf(g.stderr, "curator: simulated crash after %s\n", step)
			os.Exit(99)
		}
	}}
	return s.Save(cs, info, opt)
}

func newRunID(now time.Time) string { return mdstore.NewRunID(now) }

func commandLineOS() string { return commandLine(os.Args) }
