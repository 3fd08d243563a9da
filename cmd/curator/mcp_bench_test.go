package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/curator-dev/curator/mdstore"
)

// BenchmarkMCPListEntries is one list_entries call of 100 entries of a
// 150-entry window through
// the server in this process (the SDK's in-memory transport): the server's
// work and the client's decoding, without a process or a pipe. allocs/op
// tells builds apart on a busy machine where ns/op does not.
//
//	go test ./cmd/curator -run '^$' -bench MCPListEntries -benchmem
func BenchmarkMCPListEntries(b *testing.B) {
	dir := b.TempDir()
	s, _, err := mdstore.Init(dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.CommitStore(mdstore.CommitInfo{Summary: "curator init", RunID: "bench-init", Command: "bench"}); err != nil {
		b.Fatal(err)
	}
	cs := &mdstore.Changeset{}
	from := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range 2000 {
		id := fmt.Sprintf("m%05d", i)
		cs.Write(mdstore.MemoryPath("inbox", "fact", id), fmt.Appendf(nil, "---\nid: %s\ntype: fact\nstatus: inbox\nmaturity: case\n"+
			"brief: observation %d about module %d\nauthor: agent-%d\ntags:\n  - go\ncontent_confidence: 3\n"+
			"importance_factors:\n  proximity: 0.5\n  surprisal: 0.4\n  entity_priority: 0.3\n  unambiguity: 0.6\n"+
			"ingestion_time: %s\n---\nEntry %d, a note an agent wrote down while working.\n",
			id, i, i%100, i%5, from.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), i))
	}
	tx, err := s.Begin(mdstore.TxOptions{Command: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tx.Save(&mdstore.Run{Changes: cs, Commit: mdstore.CommitInfo{Summary: "bench: inbox", RunID: "bench-gen"}}); err != nil {
		b.Fatal(err)
	}
	tx.Close()
	session := mcpSession(b, dir)
	// 100 entries of a 150-entry window, as curatorbench mcp asks.
	args := map[string]any{"status": "inbox", "limit": 100, "ingestion_time_start": from.Add(500 * time.Minute).Format(time.RFC3339),
		"ingestion_time_end": from.Add(650 * time.Minute).Format(time.RFC3339)}
	list := func() {
		r, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_entries", Arguments: args})
		if err != nil || r.IsError {
			b.Fatalf("list_entries: %v %v", err, r)
		}
		if page, _ := r.StructuredContent.(map[string]any); page["total"] != 150.0 {
			b.Fatalf("list_entries: a window of %v entries, want 150", page["total"])
		}
	}
	list() // the live listing opens
	b.ResetTimer()
	for b.Loop() {
		list()
	}
}
