package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMCPPagesWhileOthersMoveEntries pages a window of 250 inbox entries
// the way the memory-curate procedure does (100 at a time) while other
// processes delete entries of it and rewrite others: every page comes from
// the snapshot of the first, so each entry is returned once, in order, as
// it was when the listing began. A new listing then shows the store as it
// is.
func TestMCPPagesWhileOthersMoveEntries(t *testing.T) {
	dir := memoryStore(t)
	inbox := filepath.Join(dir, ".curator/memory/inbox")
	const n = 250
	var want []string
	for i := range n {
		id := fmt.Sprintf("f-%03d", i)
		want = append(want, id)
		text := fmt.Sprintf("---\nid: %s\ntype: fact\nbrief: first brief of %s\nauthor: agent-a\n"+
			"importance_factors: {proximity: 0.5, surprisal: 0.5, entity_priority: 0.5, unambiguity: 0.5}\n"+
			"ingestion_time: 2026-11-29T09:%02d:%02dZ\n---\nbody\n", id, id, i/60, i%60)
		if err := os.WriteFile(filepath.Join(inbox, id+".md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "the inbox"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cs := mcpSession(t, dir)
	window := map[string]any{"status": "inbox", "ingestion_time_start": "2026-11-29T09:00:00Z", "ingestion_time_end": "2026-11-29T10:00:00Z", "limit": 100}
	page := func(offset int) map[string]any {
		args := map[string]any{"offset": offset}
		for k, v := range window {
			args[k] = v
		}
		return call(t, cs, "list_entries", args)
	}
	first := page(0)

	// Meanwhile: entries deleted by other curator processes, and others
	// rewritten in place by an agent.
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < n; i += 25 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("curator", "--quiet", "memory", "delete", want[i], "--reason", "moved while paged")
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("memory delete %s: %v\n%s", want[i], err, out)
			}
		}()
	}
	for i := 7; i < n; i += 25 {
		p := filepath.Join(inbox, want[i]+".md")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(data), "first brief", "second brief", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The second page once the first delete is done, the others running.
	trash := filepath.Join(dir, ".curator/memory/trash")
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if md, _ := filepath.Glob(filepath.Join(trash, "*.md")); len(md) > 0 {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("no entry reached the trash in a minute")
		}
	}
	second := page(100)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Another listing takes the changes into the server's live listing
	// before the last page is asked for.
	if trash := call(t, cs, "list_entries", map[string]any{"status": "trash"}); trash["total"].(float64) != 10 {
		t.Fatalf("the trash lists %v entries, want the 10 deleted", trash["total"])
	}
	third := page(200)

	var got []string
	for _, pg := range []map[string]any{first, second, third} {
		if pg["total"].(float64) != n || pg["snapshot"] != first["snapshot"] {
			t.Fatalf("a page of total %v, snapshot %v; want %d, %v", pg["total"], pg["snapshot"], n, first["snapshot"])
		}
		for _, e := range pg["entries"].([]any) {
			e := e.(map[string]any)
			if e["brief"] != "first brief of "+e["id"].(string) || e["status"] != "inbox" {
				t.Errorf("%s: brief %q, status %v; want the entry as it was when the listing began", e["id"], e["brief"], e["status"])
			}
			got = append(got, e["id"].(string))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("the pages gave %d entries:\n%v\nwant the %d of the window, each once, in order", len(got), got, n)
	}

	// A listing from offset 0 again is a new snapshot: the store as it is.
	now := page(0)
	if now["snapshot"] == first["snapshot"] || now["total"].(float64) != n-10 {
		t.Fatalf("a new listing: total %v, snapshot %v; want %d and a new snapshot", now["total"], now["snapshot"], n-10)
	}
	for _, e := range now["entries"].([]any) {
		e := e.(map[string]any)
		if id := e["id"].(string); id == want[7] && e["brief"] != "second brief of "+id {
			t.Errorf("%s after the rewrite: brief %q", id, e["brief"])
		}
	}
}
