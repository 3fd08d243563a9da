package templates

import "embed"

// Agents holds the files `curator init --agent` writes into a project:
//
//   - agents/claude/*.md — Claude Code slash commands, one per job, written
//     to .claude/commands/<name>.md; text/templates whose one action,
//     {{.Server}}, is the name the MCP server is registered under;
//   - agents/agents-md.md — the curator section of AGENTS.md, written
//     between its own markers beside the playbook block, as it is.
//
//go:embed agents
var Agents embed.FS

// Paths in Agents.
const (
	// ClaudeCommands is the folder of the Claude Code slash commands.
	ClaudeCommands = "agents/claude"
	// AgentsMDGuide is the curator section of AGENTS.md.
	AgentsMDGuide = "agents/agents-md.md"
)
