package templates

import "embed"

// Agents holds the files `curator init --agent` writes into a project. They
// are plain files, copied as they are (no template actions):
//
//   - agents/claude/*.md — Claude Code slash commands, one per job, written
//     to .claude/commands/<name>.md;
//   - agents/agents-md.md — the curator section of AGENTS.md, written
//     between its own markers beside the playbook block.
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
