package mcpcmd

import (
	"context"

	"github.com/curator-dev/curator/mdstore"
)

// memoryCall runs one memory use-case for a tool: in a store transaction
// taken with the server's globals (its commits name the tool), its report
// returned as the tool's structured result.
func memoryCall[R any](s *Server, tool string, do func(ctx context.Context, tx *mdstore.Tx, save []mdstore.SaveOption) (*R, error)) (Result, error) {
	env := s.env(tool)
	tx, err := env.OpenTx()
	if err != nil {
		return nil, toolError(err)
	}
	defer tx.Close()
	rep, err := do(context.Background(), tx, env.SaveOptions())
	if err != nil {
		return nil, toolError(err)
	}
	return asResult(tool, rep)
}

// memoryRead runs one read-only memory use-case for a tool.
func memoryRead[R any](s *Server, tool string, do func(ctx context.Context, st *mdstore.Store) (*R, error)) (Result, error) {
	st, err := s.env(tool).OpenStore()
	if err != nil {
		return nil, toolError(err)
	}
	rep, err := do(context.Background(), st)
	if err != nil {
		return nil, toolError(err)
	}
	return asResult(tool, rep)
}
