package mcpcmd

import (
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
)

// playbookStore opens the server's store for one call of tool, with the
// options its save takes (the commit names the tool).
func (s *Server) playbookStore(tool string) (*mdstore.Store, playbook.Saving, error) {
	env := s.env(tool)
	st, err := env.OpenStore()
	if err != nil {
		return nil, playbook.Saving{}, toolError(err)
	}
	return st, playbook.Saving{Tx: env.TxOptions(), Save: env.SaveOptions()}, nil
}

// playbookResult is a playbook use-case's typed report as the tool's
// structured result: the JSON document `curator context … --json`
// prints. A failed call is a tool error; one that skipped invalid inputs
// returns its report, which names them.
func playbookResult(rep any, err error) (Result, error) {
	if err != nil {
		return nil, toolError(err)
	}
	return asResult("", rep)
}
