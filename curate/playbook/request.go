package playbook

import (
	"fmt"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/mdstore"
)

// Saving is how a use-case that writes holds the store: the options of
// its transaction (lock wait, no commit, the command recorded in the
// commit) and of its save (the crash tests' hooks).
type Saving struct {
	Tx   mdstore.TxOptions
	Save []mdstore.SaveOption
	// Agent is the agent asking ("" unnamed), whose level config.yaml's
	// access section gives: changing the playbook needs level 4.
	Agent string
}

// allowed refuses (refuse.PermissionError) an agent of sv below level 4
// (project) when config.yaml has an access section; operation says what
// it asked ("curating the playbook").
func allowed(s *mdstore.Store, sv Saving, operation string) error {
	return s.Require(sv.Agent, mdstore.LevelProject, operation)
}

// ParamError is a request parameter that cannot be used (the one type of
// every domain: refuse.ParamError). Use-cases return it marked as
// refuse.Request; the command line names the matching flag instead.
type ParamError = refuse.ParamError

// paramErrorf is a refused request naming its parameter.
func paramErrorf(param, format string, a ...any) error {
	return refuse.Param(param, fmt.Errorf(format, a...))
}

// checkID refuses an id that cannot name a record ("" passes: not given).
func checkID(param, id string) error {
	if id == "" {
		return nil
	}
	if err := safepath.CheckID(id); err != nil {
		return refuse.Param(param, err)
	}
	return nil
}

// orEmpty is never nil, so JSON reports show [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// checkUnit refuses a number outside [0,1].
func checkUnit(param string, v float64) error {
	if v < 0 || v > 1 {
		return paramErrorf(param, "want a number in [0,1], not %v", v)
	}
	return nil
}

// openLocked takes the store's lock with sv's options and opens the
// playbook under it, for a use-case that changes it; the caller closes
// the transaction.
func openLocked(s *mdstore.Store, sv Saving) (*mdstore.Tx, *Playbook, []*mdstore.InvalidFile, error) {
	tx, err := s.Begin(sv.Tx)
	if err != nil {
		return nil, nil, nil, err
	}
	pb, _, invalid, err := Open(s, false, s.Now())
	if err != nil {
		tx.Close()
		return nil, nil, nil, err
	}
	return tx, pb, invalid, nil
}
