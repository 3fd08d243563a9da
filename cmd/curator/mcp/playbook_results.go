package mcpcmd

import (
	"context"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
)

// playbookStore opens the server's store for one call of tool, with the
// options its save takes (the commit names the tool) and the agent it is
// for: --agent or CURATOR_AGENT of `curator mcp`, else the MCP client's
// name.
func (s *Server) playbookStore(ctx context.Context, tool string) (*mdstore.Store, playbook.Saving, error) {
	env := s.agentEnv(ctx, tool)
	st, err := env.OpenStore()
	if err != nil {
		return nil, playbook.Saving{}, toolError(err)
	}
	return st, env.Saving(), nil
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
