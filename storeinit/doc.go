// Package storeinit is `curator init`'s use-case: the store created (the
// folders, config.yaml, a git repository when there is none) and
// committed as its first run, curator's merge driver registered where git
// can run it, and a coding agent's files (agentsetup) worked out before
// anything is written, then written, never committed.
package storeinit
