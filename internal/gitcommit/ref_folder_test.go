package gitcommit

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// A ref whose path is a folder of other refs, or runs through a ref's file,
// has no loose file: it reads as its packed-refs line, or as missing.
func TestReadRefBesideOtherRefs(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	git := filepath.Join(dir, ".git")
	a := "0123456789012345678901234567890123456789"
	b := "89abcdef89abcdef89abcdef89abcdef89abcdef"
	if err := os.MkdirAll(filepath.Join(git, "refs", "heads", "team"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(git, "refs", "heads", "team", "one"), []byte(a+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(git, "refs", "heads", "solo"), []byte(a+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(git, "packed-refs"), []byte(b+" refs/heads/team\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"refs/heads/team":      b,  // a folder on disk, packed
		"refs/heads/solo/more": "", // through a ref's file: missing
		"refs/heads/team/one":  a,
	} {
		got, err := r.readRef(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		w := plumbing.ZeroHash
		if want != "" {
			w = plumbing.NewHash(want)
		}
		if got != w {
			t.Errorf("%s = %s, want %s", name, got, w)
		}
	}
}
