package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMCPSearchMemory answers search_memory as `memory search --json` does,
// and keeps its index current as memories are promoted and trashed.
func TestMCPSearchMemory(t *testing.T) {
	dir := memoryStore(t)
	for _, m := range [][]string{
		{"f-pg", "fact", "Postgres connection pool is capped at 20 connections", "db,postgres"},
		{"c-pool", "concept", "A connection pool reuses database connections", "db"},
		{"f-redis", "fact", "Redis cache entries expire after one hour", "cache"},
	} {
		curator(t, dir, "memory", "add", "--id", m[0], "--type", m[1], "--brief", m[2], "--tags", m[3], "--author", "a", "--confidence", "4",
			"--proximity", "0.9", "--surprisal", "0.9", "--entity-priority", "0.9", "--unambiguity", "0.9", "--ingestion-time", "2026-11-20T09:10:00Z", "body")
	}
	curator(t, dir, "memory", "curate", "--from", "2026-11-20T09:00:00Z", "--to", "2026-11-20T10:00:00Z")
	cs := mcpSession(t, dir)
	if !toolNames(t, cs)["search_memory"] {
		t.Fatal("no tool search_memory")
	}
	res := call(t, cs, "search_memory", map[string]any{"query": "database connection pool"})
	var cli map[string]any
	if err := json.Unmarshal([]byte(curator(t, dir, "--json", "memory", "search", "database connection pool")), &cli); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res["results"], cli["results"]) {
		t.Errorf("search_memory results differ from the command's:\n%v\n%v", res["results"], cli["results"])
	}
	if ids := resultIDs(res); strings.Join(ids, ",") != "c-pool,f-pg" {
		t.Errorf("search_memory: %v", ids)
	}
	if ids := resultIDs(call(t, cs, "search_memory", map[string]any{"query": "connection pool", "type": "fact", "tags": []any{"postgres"}})); strings.Join(ids, ",") != "f-pg" {
		t.Errorf("search_memory type fact, tag postgres: %v", ids)
	}
	// the warm index follows the files: a trashed memory leaves it, a new one enters
	curator(t, dir, "memory", "delete", "c-pool")
	curator(t, dir, "memory", "add", "--id", "f-pool2", "--type", "fact", "--brief", "The database connection pool grows to 40 in production", "--quiet", "body")
	curator(t, dir, "memory", "update", "f-pool2", "--set", "maturity=confirmed")
	if ids := resultIDs(call(t, cs, "search_memory", map[string]any{"query": "database connection pool"})); strings.Join(ids, ",") != "f-pool2,f-pg" {
		t.Errorf("search_memory after the changes: %v", ids)
	}
	if ids := resultIDs(call(t, cs, "search_memory", map[string]any{"query": "database connection pool", "status": "trash"})); strings.Join(ids, ",") != "c-pool" {
		t.Errorf("search_memory in the trash: %v", ids)
	}
	for args, want := range map[string]map[string]any{
		"query: give the words":   {"query": " "},
		`status "archive"`:        {"query": "pool", "status": "archive"},
		"since":                   {"query": "pool", "since": "yesterday"},
		"limit -1: want at least": {"query": "pool", "limit": -1},
	} {
		if msg := callErr(t, cs, "search_memory", want); !strings.Contains(msg, args) || !strings.Contains(msg, "invalid arguments") {
			t.Errorf("search_memory(%v): %s", want, msg)
		}
	}
}

func resultIDs(res map[string]any) []string {
	var out []string
	for _, r := range res["results"].([]any) {
		out = append(out, r.(map[string]any)["id"].(string))
	}
	return out
}

// TestMCPCloseObservation closes one window by judgement, in one commit.
func TestMCPCloseObservation(t *testing.T) {
	dir := memoryStore(t)
	curator(t, dir, "memory", "add", "--id", "f-a", "--type", "fact", "--brief", "The CI runners have 4 cores", "--quiet", "body")
	curator(t, dir, "memory", "update", "f-a", "--set", "maturity=confirmed")
	cs := mcpSession(t, dir)
	res := call(t, cs, "close_observation", map[string]any{"id": "f-a", "outcome": "contradicted", "note": "the runners have 8 cores now"})
	if res["outcome"] != "contradicted" || len(res["commit"].(string)) != 40 {
		t.Fatalf("close_observation: %v", res)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".curator/memory/confirmed/fact/f-a.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"outcome: contradicted", "note: the runners have 8 cores now", "closed_at: 20"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("f-a.md lacks %q:\n%s", want, data)
		}
	}
	if msg := callErr(t, cs, "close_observation", map[string]any{"id": "f-a", "outcome": "held"}); !strings.Contains(msg, "no pending observation window") {
		t.Errorf("closed twice: %s", msg)
	}
	if msg := callErr(t, cs, "close_observation", map[string]any{"id": "f-a", "outcome": "maybe"}); !strings.Contains(msg, `outcome "maybe": want one of held, superseded, trashed, contradicted`) {
		t.Errorf("bad outcome: %s", msg)
	}
}

// TestMCPRecordUsage records uses as `context used` does.
func TestMCPRecordUsage(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	refl := "---\nid: refl-u\nlessons:\n  - content: Back up the database before running any schema migration.\n    category: strategy\n    confidence: 0.9\n---\n"
	call(t, cs, "add_reflection", map[string]any{"reflection": refl})
	call(t, cs, "curate_playbook", map[string]any{"dry_run": false})
	call(t, cs, "record_usage", map[string]any{"ids": []any{"STRAT-001"}})
	res := call(t, cs, "record_usage", map[string]any{"ids": []any{"STRAT-001"}, "helpful": true})
	b := res["bullets"].([]any)[0].(map[string]any)
	if b["id"] != "STRAT-001" || b["helpful_count"] != float64(1) || len(res["commit"].(string)) != 40 {
		t.Fatalf("record_usage: %v", res)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "usage_count: 2\n") || !strings.Contains(string(data), "last_used_at: 20") {
		t.Errorf("STRAT-001.md:\n%s", data)
	}
	if msg := callErr(t, cs, "record_usage", map[string]any{"ids": []any{"NOPE-1"}}); !strings.Contains(msg, "no such bullet") {
		t.Errorf("unknown bullet: %s", msg)
	}
	if msg := callErr(t, cs, "record_usage", map[string]any{"ids": []any{"STRAT-001"}, "helpful": true, "harmful": true}); !strings.Contains(msg, "not both") {
		t.Errorf("helpful and harmful: %s", msg)
	}
}
