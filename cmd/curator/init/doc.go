// Package initcmd is `curator init`: it creates a store and commits it,
// and with --agent sets up a coding agent in the same folder; the agent's
// files are agentsetup's, printed with what happens to each.
package initcmd
