package memory

import (
	"fmt"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/internal/secrets"
)

// checkID refuses an id that cannot name a record (a wrong request).
func checkID(id string) error {
	if err := safepath.CheckID(id); err != nil {
		return refuse.Request(fmt.Errorf("id: %w", err))
	}
	return nil
}

// refuseSecret turns a secret found in a request into a refusal: the
// message names where (the operation) and the field and rule, never the
// secret; nothing is stored.
func refuseSecret(where string, err *secrets.Error) error {
	if err == nil {
		return nil
	}
	return refuse.Blocked(fmt.Errorf("%s: %w; nothing was stored", where, err))
}
