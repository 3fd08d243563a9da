package main

import (
	"fmt"

	"github.com/curator-dev/curator/internal/secrets"
)

// refuseSecret turns a secret found in a command's input into exit 3: the
// message names where (a file, a command) and the field and rule, never
// the secret; nothing is stored.
func refuseSecret(where string, err *secrets.Error) error {
	if err == nil {
		return nil
	}
	return blocked(fmt.Errorf("%s: %w; nothing was stored", where, err))
}
