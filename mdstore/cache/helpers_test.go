package cache

import (
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// newStore is a store made by Init in a fresh folder (and a repository
// made by go-git), nothing committed yet.
func newStore(t *testing.T) (*mdstore.Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, _, err := mdstore.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// info is the commit of a test run.
func info(run string) mdstore.CommitInfo {
	return mdstore.CommitInfo{Summary: "test " + run, Decisions: []string{"did " + run}, RunID: run, Command: "curator test"}
}

// save records a changeset as one run of a transaction (no wait for the
// lock), with the save options the test gives.
func save(s *mdstore.Store, c *mdstore.Changeset, info mdstore.CommitInfo, opt mdstore.SaveOptions) (string, error) {
	noWait := time.Duration(0)
	tx, err := s.Begin(mdstore.TxOptions{LockTimeout: &noWait})
	if err != nil {
		return "", err
	}
	defer tx.Close()
	return tx.Save(&mdstore.Run{Changes: c, Commit: info}, func(o *mdstore.SaveOptions) { *o = opt })
}
