package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// ageBulletFolders sets the bullet folders' modification times an hour
// back, so a listing of them is not within the racy window of their
// clock (a test runs faster than a person would).
func ageBulletFolders(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, root := range []string{".curator/context/bullets", ".curator/context/archive"} {
		ents, _ := os.ReadDir(filepath.Join(dir, root))
		for _, e := range ents {
			if e.IsDir() {
				if err := os.Chtimes(filepath.Join(dir, root, e.Name()), old, old); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// cliQuery is `curator context query --json` with these flags, as a
// structured result.
func cliQuery(t *testing.T, dir string, args ...string) map[string]any {
	t.Helper()
	out := map[string]any{}
	if err := json.Unmarshal([]byte(curator(t, dir, append([]string{"--json", "context", "query"}, args...)...)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMCPQueryPlaybookWarm answers query_playbook from the playbook the
// server keeps read between calls: a second call does not list the
// bullets again, and a bullet another process writes is in the next
// answer, which stays the one `context query --json` gives.
func TestMCPQueryPlaybookWarm(t *testing.T) {
	dir := memoryStore(t)
	write(t, filepath.Join(dir, "pagination.md"), scriptFile(t, "context_curate.txtar", "pagination.md"))
	curator(t, dir, "context", "reflect", "pagination.md")
	curator(t, dir, "context", "curate")
	ageBulletFolders(t, dir)
	cs := mcpSession(t, dir)
	args := map[string]any{"text": "pagination cursor", "limit": 5}
	first := call(t, cs, "query_playbook", args)
	if want := cliQuery(t, dir, "--text", "pagination cursor", "--limit", "5"); !reflect.DeepEqual(first, want) {
		t.Fatalf("query_playbook: %v\ncontext query: %v", first, want)
	}

	// Nothing changed: the bullets are not listed again (the bullet index,
	// removed, is not written back).
	index := filepath.Join(dir, ".curator/.cache/bullet-index")
	if err := os.Remove(index); err != nil {
		t.Fatal(err)
	}
	if again := call(t, cs, "query_playbook", args); !reflect.DeepEqual(again, first) {
		t.Fatalf("the same query again: %v, then %v", first, again)
	}
	if _, err := os.Stat(index); err == nil {
		t.Error("the second query listed the bullets again (it wrote the bullet index)")
	}

	// Another process adds a bullet: the next call has it.
	write(t, filepath.Join(dir, "cursor.md"), []byte("---\nid: refl-cursor\nlessons:\n"+
		"  - content: Always follow the pagination cursor until it is empty.\n    category: api\n    confidence: 0.9\n---\n"))
	curator(t, dir, "context", "reflect", "cursor.md")
	curator(t, dir, "context", "curate")
	got := call(t, cs, "query_playbook", args)
	if reflect.DeepEqual(got, first) {
		t.Fatalf("the bullet another process added is not in the answer: %v", got)
	}
	if want := cliQuery(t, dir, "--text", "pagination cursor", "--limit", "5"); !reflect.DeepEqual(got, want) {
		t.Fatalf("after another process's curation, query_playbook: %v\ncontext query: %v", got, want)
	}
	// And once its folders are settled, answered warm again, the same.
	ageBulletFolders(t, dir)
	settled := call(t, cs, "query_playbook", args)
	if err := os.Remove(index); err != nil {
		t.Fatal(err)
	}
	if again := call(t, cs, "query_playbook", args); !reflect.DeepEqual(again, settled) || !reflect.DeepEqual(settled, got) {
		t.Fatalf("settled: %v, then %v (want %v)", settled, again, got)
	}
	if _, err := os.Stat(index); err == nil {
		t.Error("a query after a settled one listed the bullets again")
	}
}
