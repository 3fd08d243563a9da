package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Nothing is written that curator cannot read back: a record over the size
// limit or holding NUL bytes is refused before anything is written, on the
// CLI and through MCP; and a record that is already unreadable can still
// be deleted.

func TestOversizedOrBinaryRecordIsRefused(t *testing.T) {
	dir := memoryStore(t)
	head := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))
	for name, body := range map[string]string{"2 MB": strings.Repeat("big body line\n", 150_000), "NUL": "a\x00b"} {
		cmd := exec.Command("curator", "memory", "add", "--type", "fact", "--brief", "b", "--id", "m-big", "--proximity", "0.5", "-")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(body)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 || !strings.Contains(string(out), "nothing was written") {
			t.Errorf("%s body: want exit 3 and nothing written; got %v:\n%.300s", name, err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/memory/inbox/m-big.md")); err == nil {
		t.Error("the refused record was written")
	}
	if now := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD")); now != head {
		t.Error("a refused add made a commit")
	}

	cs := mcpSession(t, dir)
	msg := callErr(t, cs, "add_memory", map[string]any{"id": "f-big", "type": "fact", "brief": "big", "author": "agent-a",
		"body": strings.Repeat("x", 2<<20), "content_confidence": 4,
		"importance_factors": map[string]any{"proximity": 0.9, "surprisal": 0.8, "entity_priority": 0.7, "unambiguity": 0.9}})
	if !strings.Contains(msg, "1 MiB") {
		t.Errorf("add_memory of a 2 MiB body: %s", msg)
	}
	call(t, cs, "add_memory", map[string]any{"id": "f-ok", "type": "fact", "brief": "ok", "author": "agent-a", "body": "small\n",
		"content_confidence": 4, "importance_factors": map[string]any{"proximity": 0.9, "surprisal": 0.8, "entity_priority": 0.7, "unambiguity": 0.9}})
	msg = callErr(t, cs, "update_long_term", map[string]any{"id": "f-ok", "patch": map[string]any{"brief": strings.Repeat("y", 2<<20)}})
	if !strings.Contains(msg, "1 MiB") {
		t.Errorf("update_long_term with a 2 MiB value: %s", msg)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, ".curator/memory/inbox/f-ok.md")); strings.Contains(string(data), "yyyy") {
		t.Error("the refused patch reached the record")
	}
}

func TestUnreadableRecordCanBeDeleted(t *testing.T) {
	dir := memoryStore(t)
	curator(t, dir, "memory", "add", "--type", "fact", "--brief", "b", "--id", "m1", "--proximity", "0.5", "body")
	p := filepath.Join(dir, ".curator/memory/inbox/m1.md")
	data, _ := os.ReadFile(p)
	write(t, p, append(data, []byte(strings.Repeat("grown by hand\n", 100_000))...))
	mustGit(t, dir, "commit", "-qam", "a record grown by hand past the limit")
	curator(t, dir, "memory", "delete", "m1")
	if _, err := os.Stat(p); err == nil {
		t.Fatal("the unreadable record is still there")
	}
	if out := mustGit(t, dir, "status", "--porcelain"); out != "" {
		t.Errorf("not committed:\n%s", out)
	}
	// The hourly pass no longer trips over it.
	curator(t, dir, "memory", "curate", "--quiet")
}
