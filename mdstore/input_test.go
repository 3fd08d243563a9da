package mdstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSymlinkOutOfStoreIsRefused(t *testing.T) {
	s, _ := newStore(t)
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("---\nid: secret\ntype: fact\nbrief: x\ningestion_time: 2026-11-29T09:00:00Z\n---\n"), 0o644)
	os.Symlink(outside, s.Path("memory/inbox/secret.md"))
	res, err := s.ListMemories(MemoryQuery{Status: "inbox"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Memories) != 0 || len(res.Invalid) != 1 || !strings.Contains(res.Invalid[0].Msg, "outside the store") {
		t.Errorf("got %d memories, invalid %v", len(res.Memories), res.Invalid)
	}
}

func TestReadDocumentRejectsBinaryAndOversize(t *testing.T) {
	s, _ := newStore(t)
	os.WriteFile(s.Path("memory/inbox/bin.md"), []byte("---\nid: bin\n---\n\x00\x01"), 0o644)
	os.WriteFile(s.Path("memory/inbox/big.md"), []byte(strings.Repeat("x", MaxRecordSize+1)), 0o644)
	os.WriteFile(s.Path("memory/inbox/latin1.md"), []byte("---\nid: latin1\n---\ncaf\xe9\n"), 0o644)
	res, err := s.ListMemories(MemoryQuery{Status: "inbox"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, inv := range res.Invalid {
		got[filepath.Base(inv.Path)] = inv.Error()
	}
	for name, want := range map[string]string{"bin.md": "binary", "big.md": "1 MiB", "latin1.md": ":4: invalid UTF-8"} {
		if !strings.Contains(got[name], want) {
			t.Errorf("%s: %q lacks %q", name, got[name], want)
		}
	}
}
