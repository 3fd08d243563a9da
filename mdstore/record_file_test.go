package mdstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A record's file is read as it is, wherever it sits; an id with no file,
// one that cannot name a file, and a file leading out of the store are
// not there.
func TestReadRecordFiles(t *testing.T) {
	s, _ := newStore(t)
	write := func(rel, text string) {
		os.MkdirAll(filepath.Dir(s.Path(rel)), 0o755)
		if err := os.WriteFile(s.Path(rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("memory/trash/m-1.md", "not even frontmatter")
	write("context/archive/api/API-001.md", "---\nid: API-001\n---\n")
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("outside"), 0o644)
	os.Symlink(outside, s.Path("memory/inbox/m-out.md"))

	if data, err := s.ReadMemoryFile("m-1"); err != nil || string(data) != "not even frontmatter" {
		t.Errorf("m-1: %q, %v", data, err)
	}
	if data, err := s.ReadBulletFile("API-001"); err != nil || string(data) != "---\nid: API-001\n---\n" {
		t.Errorf("API-001: %q, %v", data, err)
	}
	for _, read := range []func() ([]byte, error){
		func() ([]byte, error) { return s.ReadMemoryFile("m-none") },
		func() ([]byte, error) { return s.ReadMemoryFile("m-out") },
		func() ([]byte, error) { return s.ReadBulletFile("../memory/trash/m-1") },
	} {
		if data, err := read(); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("got %q, %v; want fs.ErrNotExist", data, err)
		}
	}
}
