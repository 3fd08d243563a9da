package memory

import (
	"context"
	"errors"
	"strconv"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
)

// UpdateRequest asks to change keys of a memory.
type UpdateRequest struct {
	ID string
	// Sets are the changes, in the order given (at least one).
	Sets []Set
	// Save are the options of the store transaction's save.
	Save []mdstore.SaveOption
}

// UpdateReport is the outcome of an update: the keys it changed, its
// commit and where the memory's file is now.
type UpdateReport struct {
	Changed []string `json:"changed"`
	Commit  string   `json:"commit"`
	ID      string   `json:"id"`
	Path    string   `json:"path"`
}

// Update changes the memory's keys, moves its file where the change says
// (see PlanUpdate) and commits it. A key or value holding a secret is
// refused before anything is written; so is an update that would make
// an invalid memory. The observation period of a promotion is
// config.yaml memory.observation_days.
func Update(_ context.Context, tx *mdstore.Tx, req UpdateRequest) (*UpdateReport, error) {
	if len(req.Sets) == 0 {
		return nil, refuse.Requestf("nothing to update: give at least one key and value")
	}
	s := tx.Store
	if err := refuseSecretKeys(s.Secrets(), "memory update "+req.ID, req.Sets); err != nil {
		return nil, err
	}
	if err := checkID(req.ID); err != nil {
		return nil, err
	}
	m, err := s.FindMemory(req.ID)
	if err != nil {
		return nil, err
	}
	e, err := PlanUpdate(m, req.Sets, s.Now(), s.Config.Memory.ObservationDays)
	var fixed *FixedKeyError
	var rule *RuleMaturityError
	switch {
	case errors.As(err, &fixed), errors.As(err, &rule):
		return nil, refuse.Request(err)
	case errors.Is(err, ErrInvalidEdit):
		return nil, refuse.Blocked(err)
	case err != nil:
		return nil, err
	}
	if err := refuseSecret("memory update "+m.ID, s.Secrets().Check(e.Memory.TextFields()...)); err != nil {
		return nil, err
	}
	if err := e.Occupied(s.Exists); err != nil {
		return nil, refuse.Blocked(err)
	}
	commit, err := tx.Save(e.Run, req.Save...)
	if err != nil {
		return nil, err
	}
	return &UpdateReport{Changed: e.Changed, Commit: commit, ID: e.ID, Path: e.To}, nil
}

// refuseSecretKeys refuses an update whose key names hold a secret (they are
// written into the file and the commit message as much as the values). It
// runs before anything else reads the keys, so no message repeats one; the
// key is named with its secret redacted.
func refuseSecretKeys(p *secrets.Policy, where string, sets []Set) error {
	for _, set := range sets {
		if red, fs := p.Redact(set.Key); len(fs) > 0 {
			return refuseSecret(where, &secrets.Error{Field: "the key " + strconv.Quote(red), Finding: fs[0]})
		}
	}
	return nil
}
