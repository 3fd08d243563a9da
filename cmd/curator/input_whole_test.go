package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputReadWholeFromStdin: a playbook imported from stdin is read
// whole, as from a file, past the 1 MiB a record may hold (it was cut
// there, and the bullets after the cut were lost without a word).
func TestInputReadWholeFromStdin(t *testing.T) {
	var pb bytes.Buffer
	pb.WriteString("## STRATEGIES\n")
	const n = 2600
	for i := range n {
		fmt.Fprintf(&pb, "[s-%05d] helpful=1 harmful=0 :: check the page number %d twice before going on to the next page; %s\n", i, i, strings.Repeat("a long reason why it matters ", 12))
	}
	if pb.Len() <= 1<<20 {
		t.Fatalf("the playbook is %d bytes, want over 1 MiB", pb.Len())
	}
	dir := memoryStore(t)
	cmd := exec.Command("curator", "context", "import", "--format", "ace", "-")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, append(os.Environ(), testIdentity...), &pb
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("context import -: %v\n%s", err, out)
	}
	if want := fmt.Sprintf("Imported %d of %d bullets from stdin", n, n); !strings.Contains(string(out), want) {
		t.Errorf("context import - says %q, want %q", out, want)
	}
	files, _ := filepath.Glob(filepath.Join(dir, ".curator/context/bullets/*/*.md"))
	if len(files) != n {
		t.Errorf("%d bullet files, want %d", len(files), n)
	}
}

// TestInputTooLargeRefusedBeforeRead: a file over 1 GiB is refused by its
// size (exit 3), without being read.
func TestInputTooLargeRefusedBeforeRead(t *testing.T) {
	dir := memoryStore(t)
	big := filepath.Join(t.TempDir(), "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1<<30 + 1); err != nil { // sparse: nothing written
		t.Fatal(err)
	}
	f.Close()
	code, stderr := curatorExit(t, dir, "context", "import", "--format", "ace", big)
	if code != 3 || !strings.Contains(stderr, "more than 1 GiB") {
		t.Errorf("context import of 1 GiB and a byte: exit %d, %q; want exit 3 saying it is too large", code, stderr)
	}
}
