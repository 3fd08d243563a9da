package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// procedureEntry is what an agent reads of an entry from list_entries.
type procedureEntry struct {
	id, typ, brief, author, at string
	confidence                 float64
	factors                    map[string]float64
	tags                       int
}

// dropProcedureEntries writes n inbox entries into the store at dir, from
// 2026-11-29T09:00:00Z a minute apart: duplicates of one author, strong
// facts and concepts of each channel, weak ones, lessons, and a few
// entries after the window.
func dropProcedureEntries(t *testing.T, dir string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		typ := []string{"fact", "concept", "lesson"}[i%3]
		brief := fmt.Sprintf("observation number %d about the build", i)
		if i%10 == 7 { // a duplicate of entry i-3: same type, same author, same brief
			brief = fmt.Sprintf("observation number %d about the build", i-3)
		}
		p, s, e, u := 0.1*float64(i%10), 0.1*float64((i*7)%10), 0.1*float64((i*3)%10), 0.1*float64((i*9)%10)
		if i%13 == 0 {
			s = 0.95 // channel B
		}
		conf := 1 + i%5
		tags := "[go]"
		if i%4 == 0 {
			tags = "[go, build]"
		}
		at := fmt.Sprintf("2026-11-29T%02d:%02d:00Z", 9+i/60, i%60)
		entry := fmt.Sprintf("---\nid: e-%04d\ntype: %s\nstatus: inbox\nmaturity: case\nbrief: %s\nauthor: agent-a\ntags: %s\n"+
			"content_confidence: %d\nimportance_factors:\n  proximity: %.1f\n  surprisal: %.2f\n  entity_priority: %.1f\n  unambiguity: %.1f\n"+
			"ingestion_time: %s\n---\nbody %d\n", i, typ, brief, tags, conf, p, s, e, u, at, i)
		write(t, filepath.Join(dir, ".curator/memory/inbox", fmt.Sprintf("e-%04d.md", i)), []byte(entry))
	}
}

// placement is where each memory file is, by id.
func placement(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := filepath.Join(dir, ".curator/memory")
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(root, p)
			out[strings.TrimSuffix(filepath.Base(p), ".md")] = filepath.Dir(rel)
		}
		return nil
	})
	return out
}

// TestMCPProcedureMatchesCurate follows the memory-curate procedure word
// for word through the MCP tools — page through every inbox entry of the
// window in 100s, decide, then delete_memory and update_long_term — and
// checks that the store ends as `curator memory curate` leaves a copy of
// it for the same window.
func TestMCPProcedureMatchesCurate(t *testing.T) {
	gitEnv(t)
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	os.MkdirAll(a, 0o755)
	curator(t, a, "init")
	dropProcedureEntries(t, a, 260)
	if out, err := exec.Command("cp", "-a", a, b).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	const from, to = "2026-11-29T09:00:00Z", "2026-11-29T13:00:00Z"
	curator(t, a, "memory", "curate", "--from", from, "--to", to)

	cs := mcpSession(t, b)
	// 1. Collect every inbox entry of the window, all pages, before acting.
	var all []procedureEntry
	for offset := 0; ; offset += 100 {
		page := call(t, cs, "list_entries", map[string]any{"status": "inbox", "ingestion_time_start": from, "ingestion_time_end": to, "limit": 100, "offset": offset})
		for _, raw := range page["entries"].([]any) {
			m := raw.(map[string]any)
			e := procedureEntry{id: m["id"].(string), typ: m["type"].(string), brief: m["brief"].(string), author: m["author"].(string),
				at: m["ingestion_time"].(string), confidence: m["content_confidence"].(float64), factors: map[string]float64{}, tags: len(m["tags"].([]any))}
			if _, ok := m["importance_factors"].(map[string]any); !ok {
				t.Fatalf("entry without importance_factors: %v", m)
			}
			for k, v := range m["importance_factors"].(map[string]any) {
				e.factors[k] = v.(float64)
			}
			all = append(all, e)
		}
		if offset+100 >= int(page["total"].(float64)) {
			break
		}
	}
	if len(all) != 240 {
		t.Fatalf("collected %d entries of the window, want 240", len(all))
	}
	// 2. Dedup by (type, first 40 runes of brief), same author: keep the newest.
	groups := map[string][]procedureEntry{}
	for _, e := range all {
		r := []rune(e.brief)
		key := fmt.Sprintf("%s|%x", e.typ, sha256.Sum256([]byte(string(r[:min(40, len(r))]))))
		groups[key] = append(groups[key], e)
	}
	var remaining []procedureEntry
	for _, g := range groups {
		sort.Slice(g, func(i, j int) bool { return g[i].at+g[i].id > g[j].at+g[j].id })
		remaining = append(remaining, g[0])
		for _, dup := range g[1:] {
			call(t, cs, "delete_memory", map[string]any{"id": dup.id, "reason": "duplicate"})
		}
	}
	// 3–5. Score; promote facts and concepts by channel; trash the weak.
	const eps = 1e-9
	for _, e := range remaining {
		f := e.factors
		score := 0.4*f["proximity"] + 0.3*f["surprisal"] + 0.2*f["entity_priority"] + 0.1*f["unambiguity"]
		promote := e.typ != "lesson" && ((score >= 0.75-eps && e.confidence >= 4) || (f["surprisal"] >= 0.9-eps && e.confidence >= 3) ||
			(f["entity_priority"] >= 0.7-eps && e.tags >= 2 && e.confidence >= 3))
		switch {
		case promote:
			call(t, cs, "update_long_term", map[string]any{"id": e.id, "patch": map[string]any{"maturity": "confirmed", "status": "confirmed",
				"observation": map[string]any{"started_at": "2026-11-29T13:00:00Z", "window_days": 7, "outcome": "pending"}}})
		case score < 0.3-eps:
			call(t, cs, "delete_memory", map[string]any{"id": e.id, "reason": "low_score"})
		}
	}
	pa, pb := placement(t, a), placement(t, b)
	if len(pa) != 260 || len(pb) != 260 {
		t.Fatalf("%d and %d memory files, want 260", len(pa), len(pb))
	}
	var differ []string
	for id, where := range pa {
		if pb[id] != where {
			differ = append(differ, fmt.Sprintf("%s: curate %s, procedure %s", id, where, pb[id]))
		}
	}
	sort.Strings(differ)
	if len(differ) > 0 {
		t.Fatalf("%d entries end elsewhere:\n%s", len(differ), strings.Join(differ, "\n"))
	}
	count := map[string]int{}
	for _, w := range pb {
		count[w]++
	}
	t.Logf("placement: %v", count)
	if count["trash"] == 0 || count["confirmed/fact"] == 0 || count["inbox"] == 0 {
		t.Errorf("the fixture does not exercise every outcome: %v", count)
	}
}

// TestMCPConcurrentServers runs five servers on one store, each making 50
// mutating calls at once: every call is applied once, each is one
// commit, and the repository is consistent.
func TestMCPConcurrentServers(t *testing.T) {
	dir := memoryStore(t)
	const servers, calls = 5, 50
	sessions := make([]*mcp.ClientSession, servers)
	for i := range sessions {
		sessions[i] = mcpProcess(t, dir, "--lock-timeout", "5m")
	}
	before := commits(t, dir)
	run := func(do func(server, k int) (string, map[string]any)) {
		var wg sync.WaitGroup
		errs := make(chan string, servers*calls)
		for i := range sessions {
			for k := 0; k < calls; k++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					name, args := do(i, k)
					if res, msg := callTool(t, sessions[i], name, args); res == nil {
						errs <- fmt.Sprintf("%s %v: %s", name, args, msg)
					}
				}()
			}
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
	run(func(i, k int) (string, map[string]any) {
		return "add_memory", map[string]any{"id": fmt.Sprintf("c-%d-%02d", i, k), "type": "fact", "brief": fmt.Sprintf("fact %d %d", i, k)}
	})
	run(func(i, k int) (string, map[string]any) {
		// each server edits the entries another server added
		return "update_long_term", map[string]any{"id": fmt.Sprintf("c-%d-%02d", (i+1)%servers, k), "patch": map[string]any{"tags": []any{"edited", fmt.Sprint(i)}}}
	})
	if n := commits(t, dir) - before; n != 2*servers*calls {
		t.Errorf("%d commits for %d calls", n, 2*servers*calls)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, ".curator/memory/inbox/*.md"))
	if len(entries) != servers*calls {
		t.Errorf("%d inbox files, want %d", len(entries), servers*calls)
	}
	for _, e := range entries {
		data, _ := os.ReadFile(e)
		if !strings.Contains(string(data), "- edited") {
			t.Errorf("%s was not edited:\n%s", e, data)
		}
	}
	if out, err := exec.Command("git", "-C", dir, "fsck", "--strict").CombinedOutput(); err != nil {
		t.Errorf("git fsck: %v\n%s", err, out)
	}
	if out, _ := exec.Command("git", "-C", dir, "status", "--porcelain").Output(); len(out) > 0 {
		t.Errorf("uncommitted changes after the calls:\n%s", out)
	}
}
