package mcpcmd

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/internal/mcpstdio"
	"github.com/curator-dev/curator/mdstore"
)

// NewCmd builds `curator mcp`.
func NewCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the store to agents over the Model Context Protocol (stdio)",
		Description: "Reads JSON-RPC on stdin and answers on stdout until stdin ends. The store is the one found\n" +
			"from the working directory (or --store), fixed when the server starts. Tools: list_entries,\n" +
			"get_memory, add_memory, update_long_term, delete_memory, restore_memory, promote_to_rule,\n" +
			"curate_memory, query_playbook, add_reflection, curate_playbook, playbook_stats, review_queue,\n" +
			"pipeline_status, pipeline_transition, validate_artifacts. Each mutating call is one commit.\n" +
			"Set up Claude Code with `curator init --agent claude` or `claude mcp add curator -- curator mcp`.",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cmdutil.Usagef("mcp takes no arguments (got %q)", c.Args().First())
			}
			g := cmdutil.GlobalsOf(c)
			dir := g.Store
			if dir == "" {
				found, err := mdstore.Find(".")
				if err != nil {
					return err
				}
				dir = found
			}
			s, err := mdstore.Open(dir)
			if err != nil {
				return err
			}
			g.Store, g.JSON, g.Quiet = s.Dir, true, true

			srv, err := NewServer(f, g)
			if err != nil {
				return err
			}
			defer srv.Close()
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			err = srv.Run(ctx, mcpstdio.New(f.IO.In, f.IO.Out))
			if ctx.Err() != nil {
				return nil
			}
			return err
		},
	}
}

// Run serves one MCP session on t until it ends.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}
