package mdstore

import (
	"testing"
	"time"
)

// newStore is a store made by Init in a fresh folder (and a repository
// made by go-git), nothing committed yet.
func newStore(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, _, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// info is the commit of a test run.
func info(run string) CommitInfo {
	return CommitInfo{Summary: "test " + run, Decisions: []string{"did " + run}, RunID: run, Command: "curator test"}
}

// save records a changeset as one run of a transaction (no wait for the
// lock), with the save options the test gives.
func (s *Store) save(c *Changeset, info CommitInfo, opt SaveOptions) (string, error) {
	noWait := time.Duration(0)
	tx, err := s.Begin(TxOptions{LockTimeout: &noWait})
	if err != nil {
		return "", err
	}
	defer tx.Close()
	return tx.Save(&Run{Changes: c, Commit: info}, func(o *SaveOptions) { *o = opt })
}

// listFolder reads every record file of a store folder as a listing does:
// the records read, and the files that could not be.
func listFolder(t *testing.T, s *Store, dir string) *MemoryList {
	t.Helper()
	names, err := RecordNames(s.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	rels := make([]string, len(names))
	for i, n := range names {
		rels[i] = dir + "/" + n
	}
	res := &MemoryList{}
	for i, r := range s.ReadMemories(rels, false, nil, nil) {
		if r.Err != nil {
			res.Invalid = append(res.Invalid, InvalidFileOf(rels[i], r.Err))
		} else {
			res.Memories = append(res.Memories, r.Memory)
		}
	}
	return res
}
