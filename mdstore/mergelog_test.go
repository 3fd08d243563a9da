package mdstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeLogLineTooLong: a merge-log line longer than a record may be is
// reported with its file and line; the lines before it are read.
func TestMergeLogLineTooLong(t *testing.T) {
	s, _ := newStore(t)
	p := s.Path("context/log/run-1.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	data := `{"bullet_id":"b-1"}` + "\n" + `{"bullet_id":"` + strings.Repeat("x", 2<<20) + `"}` + "\n" + `{"bullet_id":"b-3"}` + "\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, bad, err := s.ReadMergeLogs()
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0].BulletID != "b-1" {
		t.Errorf("lines %+v, want the first", lines)
	}
	if len(bad) != 1 || bad[0].Path != "context/log/run-1.jsonl" || bad[0].Line != 2 {
		t.Errorf("reported %+v, want context/log/run-1.jsonl line 2", bad)
	}
}
