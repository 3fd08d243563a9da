package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The MCP server never ends a session on one bad line, and a piped session
// is answered whole: every request read before the end of input is answered
// and applied, in the order it was sent.
func TestMCPServerSurvivesBadLines(t *testing.T) {
	dir := memoryStore(t)
	add := `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"add_memory","arguments":{"id":"f-a","type":"fact","brief":"first","author":"x","body":"b","content_confidence":3,"importance_factors":{"proximity":0.5,"surprisal":0.5,"entity_priority":0.5,"unambiguity":0.5}}}}`
	update := func(id int, brief string) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"update_long_term","arguments":{"id":"f-a","patch":{"brief":"` + brief + `"}}}}`
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
		`garbage`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"`,
		`[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
		`{"jsonrpc":"1.0","id":4,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/list"}` + "\x00",
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
		add,
	}
	for i := 0; i < 8; i++ {
		lines = append(lines, update(11+i, "brief "+strconv.Itoa(i)))
	}
	cmd := exec.Command("curator", "mcp")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("curator mcp exited: %v\n%s", err, out)
	}
	var answers []map[string]any
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("an answer is not JSON: %v\n%s", err, sc.Text())
		}
		answers = append(answers, m)
	}
	if len(answers) != len(lines) {
		t.Fatalf("%d lines, %d answers:\n%s", len(lines), len(answers), out)
	}
	errs, results := 0, map[float64]bool{}
	for _, a := range answers {
		if e, ok := a["error"].(map[string]any); ok {
			errs++
			if code := e["code"].(float64); code != -32700 && code != -32600 {
				t.Errorf("error code %v for a bad line: %v", code, a)
			}
			if _, has := a["id"]; !has {
				t.Errorf("an error answer without id (null when unknown): %v", a)
			}
			continue
		}
		results[a["id"].(float64)] = true
	}
	if errs != 7 {
		t.Errorf("%d error answers, want 7 (one per bad line)", errs)
	}
	for _, id := range []float64{1, 10, 11, 18} {
		if !results[id] {
			t.Errorf("request %v was not answered", id)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".curator/memory/inbox/f-a.md"))
	if !strings.Contains(string(data), "brief: brief 7\n") {
		t.Errorf("the pipelined updates were not applied in order:\n%s", data)
	}
}

// The MCP tools refuse what the CLI refuses: an unknown importance factor,
// a memory type that is a maturity.
func TestMCPRefusesWhatTheCLIRefuses(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	msg := callErr(t, cs, "add_memory", map[string]any{"id": "f-typo", "type": "fact", "brief": "typo", "author": "a", "body": "b",
		"content_confidence": 3, "importance_factors": map[string]any{"proximty": 0.9}})
	if !strings.Contains(msg, `unknown factor "proximty"`) {
		t.Errorf("add_memory with a misspelt factor: %s", msg)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/memory/inbox/f-typo.md")); err == nil {
		t.Error("the refused memory was written")
	}
	msg = callErr(t, cs, "list_entries", map[string]any{"status": "confirmed", "type": "rule"})
	if !strings.Contains(msg, "rule is a maturity") {
		t.Errorf("list_entries type rule: %s", msg)
	}
	cmd := exec.Command("curator", "memory", "list", "--type", "rule")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("memory list --type rule succeeded:\n%s", out)
	}
}
