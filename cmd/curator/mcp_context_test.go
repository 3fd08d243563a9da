package main

import "testing"

// The playbook tools check their ids as the context commands do: an id
// that cannot name a record is refused as such, before the store is read.
func TestMCPPlaybookChecksIDsAsTheCLI(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	wantMessage(t, "curate_playbook", callErr(t, cs, "curate_playbook", map[string]any{"reflection_id": "r-1 "}),
		"invalid arguments", "reflection_id", "not a safe file name", "ends with a space")
}
