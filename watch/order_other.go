//go:build !linux

package watch

// ordered: kqueue and ReadDirectoryChangesW do not keep the order of
// changes across folders; Sync asks for a Rescan batch instead.
const ordered = false
