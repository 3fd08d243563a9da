package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	mcpcmd "github.com/curator-dev/curator/cmd/curator/mcp"
	"github.com/curator-dev/curator/mdstore"
)

// These tests talk to curator's MCP server with the MCP Go SDK's client:
// in this process over the SDK's in-memory transport where the process
// adds nothing (mcpSession), and as a real `curator mcp` process over
// stdio (mcpProcess: this test binary, as testscript installs it in PATH)
// where it does — its flags, several servers on one store.

// mcpSession serves the store that dir holds (or lies in) in this process
// and connects a client to it.
func mcpSession(t testing.TB, dir string) *mcp.ClientSession {
	t.Helper()
	return mcpSessionAs(t, dir, "curator-test", cmdutil.Globals{})
}

// mcpSessionAs is mcpSession with a client of that name, the server run
// with the given global flags (--agent) beside the store's.
func mcpSessionAs(t testing.TB, dir, client string, g cmdutil.Globals) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	found, err := mdstore.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mdstore.Open(found)
	if err != nil {
		t.Fatal(err)
	}
	f := &cmdutil.Factory{IO: cmdutil.Streams(strings.NewReader(""), io.Discard, io.Discard)}
	g.Store, g.JSON, g.Quiet = s.Dir, true, true
	srv, err := mcpcmd.NewServer(f, g)
	if err != nil {
		t.Fatal(err)
	}
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, serverEnd) }()
	c := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1"}, nil)
	cs, err := c.Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		<-done
		srv.Close()
	})
	return cs
}

// mcpProcess starts `curator mcp` in dir and connects a client to it.
func mcpProcess(t *testing.T, dir string, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command("curator", append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "curator-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its structured result; a tool error fails
// the test.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, msg := callTool(t, cs, name, args)
	if res == nil {
		t.Fatalf("%s(%v): tool error: %s", name, args, msg)
	}
	return res
}

// callErr calls a tool that must fail and returns its message.
func callErr(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, msg := callTool(t, cs, name, args)
	if res != nil {
		t.Fatalf("%s(%v) succeeded: %v", name, args, res)
	}
	return msg
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err.Error()
	}
	if r.IsError {
		var b strings.Builder
		for _, c := range r.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return nil, b.String()
	}
	raw, _ := json.Marshal(r.StructuredContent)
	out := map[string]any{}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, raw, err)
	}
	return out, ""
}

// toolNames are the tools the server lists.
func toolNames(t *testing.T, cs *mcp.ClientSession) map[string]bool {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	return names
}

func ids(t *testing.T, res map[string]any) []string {
	t.Helper()
	var out []string
	list, _ := res["entries"].([]any)
	for _, e := range list {
		out = append(out, e.(map[string]any)["id"].(string))
	}
	return out
}

func memoryStore(t *testing.T) string {
	t.Helper()
	gitEnv(t)
	dir := t.TempDir()
	curator(t, dir, "init")
	return dir
}

// TestMCPMemoryTools calls every memory tool the way the procedure does.
func TestMCPMemoryTools(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	names := toolNames(t, cs)
	for _, want := range []string{"list_entries", "update_long_term", "delete_memory", "add_memory", "get_memory", "restore_memory", "promote_to_rule", "curate_memory"} {
		if !names[want] {
			t.Errorf("no tool %s", want)
		}
	}

	for i, at := range []string{"2026-11-29T09:10:00Z", "2026-11-29T09:20:00Z", "2026-11-29T09:30:00Z"} {
		res := call(t, cs, "add_memory", map[string]any{"id": "f-" + string(rune('a'+i)), "type": "fact", "brief": "fact " + string(rune('a'+i)),
			"author": "agent-a", "ingestion_time": at, "body": "the body", "content_confidence": 4,
			"importance_factors": map[string]any{"proximity": 0.9, "surprisal": 0.8, "entity_priority": 0.7, "unambiguity": 0.9}})
		if res["commit"] == "" || res["id"] != "f-"+string(rune('a'+i)) {
			t.Fatalf("add_memory: %v", res)
		}
	}
	page := call(t, cs, "list_entries", map[string]any{"status": "inbox", "ingestion_time_start": "2026-11-29T09:00:00Z",
		"ingestion_time_end": "2026-11-29T09:30:00Z", "limit": 1, "offset": 0})
	if got := ids(t, page); len(got) != 1 || got[0] != "f-a" || page["total"].(float64) != 2 {
		t.Fatalf("first page: %v", page)
	}
	if _, has := page["entries"].([]any)[0].(map[string]any)["body"]; has {
		t.Error("list_entries returned a body without include_body")
	}
	// An agent moves f-a away while the listing is paged: the next page still
	// comes from the snapshot.
	call(t, cs, "delete_memory", map[string]any{"id": "f-a", "reason": "duplicate"})
	next := call(t, cs, "list_entries", map[string]any{"status": "inbox", "ingestion_time_start": "2026-11-29T09:00:00Z",
		"ingestion_time_end": "2026-11-29T09:30:00Z", "limit": 1, "offset": 1})
	if got := ids(t, next); len(got) != 1 || got[0] != "f-b" || next["snapshot"] != page["snapshot"] {
		t.Fatalf("second page: %v", next)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".curator/memory/trash/f-a.md"))
	if err != nil || !strings.Contains(string(data), "reason: duplicate") {
		t.Fatalf("trashed f-a: %v\n%s", err, data)
	}
	call(t, cs, "restore_memory", map[string]any{"id": "f-a"})

	// maturity: confirmed moves an inbox entry to confirmed/<type>/ in one commit.
	up := call(t, cs, "update_long_term", map[string]any{"id": "f-b", "patch": map[string]any{"maturity": "confirmed", "importance_factors": map[string]any{"proximity": 1}}})
	if up["path"] != "memory/confirmed/fact/f-b.md" {
		t.Fatalf("update_long_term: %v", up)
	}
	got := call(t, cs, "get_memory", map[string]any{"id": "f-b"})
	if got["status"] != "confirmed" || got["body"] != "the body\n" || got["importance_factors"].(map[string]any)["proximity"].(float64) != 1 {
		t.Fatalf("get_memory: %v", got)
	}

	// Errors are tool errors with a clear message; the server goes on.
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"list_entries", map[string]any{"status": "nowhere"}, "status"},
		{"list_entries", map[string]any{"status": "inbox", "limit": 5000}, "limit"},
		{"list_entries", map[string]any{"status": "inbox", "limit": "many"}, "limit"}, // refused by the JSON schema
		{"update_long_term", map[string]any{"id": "f-c"}, "patch"},
		{"list_entries", map[string]any{"status": "inbox", "ingestion_time_start": "yesterday"}, "ingestion_time_start"},
		{"list_entries", map[string]any{"status": "inbox", "offset": 1, "snapshot": "nope"}, "snapshot"},
		{"get_memory", map[string]any{"id": "missing"}, "missing"},
		{"update_long_term", map[string]any{"id": "f-c", "patch": map[string]any{"content_confidence": 9}}, "content_confidence"},
		{"update_long_term", map[string]any{"id": "f-c", "patch": map[string]any{}}, "patch"},
		{"delete_memory", map[string]any{"id": "f-a", "reason": "x"}, ""},
		{"restore_memory", map[string]any{"id": "f-c"}, "trash"},
		{"add_memory", map[string]any{"type": "opinion", "brief": "x"}, "type"},
		{"add_memory", map[string]any{"type": "fact", "brief": "key AKIAQWJ4ZT7NRX5LBV2M here"}, "secret"},
		{"promote_to_rule", map[string]any{"scenario": "nothing"}, "case"},
	} {
		if c.want == "" { // the first call succeeds, the second finds it in the trash
			call(t, cs, c.tool, c.args)
			c.want = "trash"
		}
		if msg := callErr(t, cs, c.tool, c.args); !strings.Contains(strings.ToLower(msg), c.want) {
			t.Errorf("%s(%v): message %q does not mention %q", c.tool, c.args, msg, c.want)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, ".curator/memory/inbox/f-c.md")); !strings.Contains(string(data), "content_confidence: 4") {
		t.Errorf("an invalid patch changed the file:\n%s", data)
	}

	// The hourly pass, its report as structured output.
	rep := call(t, cs, "curate_memory", map[string]any{"ingestion_time_start": "2026-11-29T09:00:00Z", "ingestion_time_end": "2026-11-29T10:00:00Z"})
	if rep["commit"] == "" || len(rep["promoted"].([]any)) != 1 {
		t.Fatalf("curate_memory: %v", rep)
	}
}
