// Package initcmd is `curator init`: it creates a store and commits it,
// and with --agent sets up a coding agent in the same folder (.mcp.json,
// Claude Code slash commands, the playbook block of CLAUDE.md or AGENTS.md).
// The agent files are written, not committed; the slash commands and the
// AGENTS.md section are embedded from templates/agents/, and the playbook
// block is the one `context inject` writes (curate/playbook).
package initcmd
