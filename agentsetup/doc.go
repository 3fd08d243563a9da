// Package agentsetup sets up a coding agent to use a store: the files of
// `curator init --agent` worked out before anything is written (.mcp.json
// with curator's MCP server merged in, keeping the file's own layout and
// entries; Claude Code's slash commands; the playbook block of CLAUDE.md,
// or AGENTS.md with its curator section), each created, merged, kept or
// unchanged, then written, never committed.
package agentsetup
