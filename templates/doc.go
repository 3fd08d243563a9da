// Package templates holds the text curator renders into files: the context
// brief handed to the next agent of a pipeline, the pipeline dashboard, and
// the files `curator init --agent` writes (Claude Code slash commands, the
// AGENTS.md section).
// They are embedded in the binary; add new templates next to them.
package templates
