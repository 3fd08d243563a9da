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
	res := listFolder(t, s, "memory/inbox")
	if len(res.Memories) != 0 || len(res.Invalid) != 1 || !strings.Contains(res.Invalid[0].Msg, "outside the store") {
		t.Errorf("got %d memories, invalid %v", len(res.Memories), res.Invalid)
	}
}

func TestReadDocumentRejectsBinaryAndOversize(t *testing.T) {
	s, _ := newStore(t)
	os.WriteFile(s.Path("memory/inbox/bin.md"), []byte("---\nid: bin\n---\n\x00\x01"), 0o644)
	os.WriteFile(s.Path("memory/inbox/big.md"), []byte(strings.Repeat("x", MaxRecordSize+1)), 0o644)
	os.WriteFile(s.Path("memory/inbox/latin1.md"), []byte("---\nid: latin1\n---\ncaf\xe9\n"), 0o644)
	res := listFolder(t, s, "memory/inbox")
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

// ReadBody gives a record's body without parsing its frontmatter, and
// refuses what ReadDocument refuses of the bytes.
func TestReadBody(t *testing.T) {
	s, _ := newStore(t)
	files := map[string]string{
		"ok.md":       "---\nid: ok\nbrief: [not: checked\n---\nThe body.\n",
		"bin.md":      "---\nid: bin\n---\n\x00\x01",
		"latin1.md":   "---\nid: latin1\n---\ncaf\xe9\n",
		"open.md":     "---\nid: open\nno closing line\n",
		"nofront.md":  "just text\n",
		"oversize.md": strings.Repeat("x", MaxRecordSize+1),
	}
	for name, text := range files {
		os.WriteFile(s.Path("memory/inbox/"+name), []byte(text), 0o644)
	}
	for name, want := range map[string]string{"ok.md": "The body.\n", "nofront.md": "just text\n"} {
		if got, err := s.ReadBody("memory/inbox/" + name); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	for name, want := range map[string]string{"bin.md": "binary", "latin1.md": "invalid UTF-8", "open.md": "never closed", "oversize.md": "1 MiB"} {
		if _, err := s.ReadBody("memory/inbox/" + name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, want)
		}
	}
	if _, err := s.ReadBody("memory/inbox/none.md"); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}
