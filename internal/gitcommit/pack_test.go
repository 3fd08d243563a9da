package gitcommit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestCommitLargeRunWritesAPack(t *testing.T) {
	needGit(t)
	s, dir := newStore(t)
	cs := &Changeset{}
	for i := 0; i < 2*LooseLimit; i++ {
		cs.Write(fmt.Sprintf("memory/inbox/m%04d.md", i), []byte(fmt.Sprintf("---\nid: m%04d\n---\n", i)))
	}
	if _, err := s.Save(cs, info("big")); err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(dir, ".git/objects/pack/*.idx"))
	if len(packs) != 1 {
		t.Fatalf("want one pack, got %v", packs)
	}
	gitCmd(t, dir, "verify-pack", packs[0]) // checksums, CRCs and offsets of our pack writer
	gitCmd(t, dir, "fsck", "--strict")
	if st := gitCmd(t, dir, "status", "--porcelain"); strings.Contains(st, "memory/inbox/m") {
		t.Errorf("status shows the run's files:\n%s", st)
	}
	if n := strings.Count(gitCmd(t, dir, "ls-files", ".curator/memory/inbox"), "\n"); n != 2*LooseLimit {
		t.Errorf("index has %d inbox files", n)
	}
}

// Objects larger than a compression piece (deflated in parts on all cores
// and joined into one zlib stream) read back exactly with real git.
func TestPackJoinsLargeObjectsFromPieces(t *testing.T) {
	needGit(t)
	s, dir := newStore(t)
	cs := &Changeset{}
	var big strings.Builder
	for i := 0; big.Len() < 3*packChunk+12345; i++ {
		fmt.Fprintf(&big, "line %d: %x\n", i, i*2654435761)
	}
	cs.Write("memory/inbox/big.md", []byte(big.String()))
	cs.Write("memory/inbox/exact.md", bytes.Repeat([]byte("ab\n"), packChunk/3*2)) // exactly two pieces
	cs.Write("memory/inbox/empty.md", nil)
	for i := 0; i < 2*LooseLimit; i++ {
		cs.Write(fmt.Sprintf("memory/inbox/m%04d.md", i), []byte(fmt.Sprintf("%d\n", i)))
	}
	if _, err := s.Save(cs, info("big objects")); err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(dir, ".git/objects/pack/*.idx"))
	if len(packs) != 1 {
		t.Fatalf("want one pack, got %v", packs)
	}
	gitCmd(t, dir, "verify-pack", packs[0])
	gitCmd(t, dir, "fsck", "--strict")
	for _, name := range []string{"big.md", "exact.md", "empty.md"} {
		want, _ := os.ReadFile(filepath.Join(dir, ".curator/memory/inbox", name))
		if got := gitCmd(t, dir, "show", "HEAD:.curator/memory/inbox/"+name); got != string(want) {
			t.Errorf("%s: git reads %d bytes, the file has %d", name, len(got), len(want))
		}
	}
}

// TestPackTempNamesSayCurators: a pack and its index being written are
// named tmp_pack_curator-<pid>- and tmp_idx_curator-<pid>-, the names by
// which curator sync's pack repair removes a killed run's leftovers (and
// keeps a running git's tmp_ files).
func TestPackTempNamesSayCurators(t *testing.T) {
	gitDir := filepath.Join(t.TempDir(), ".git")
	obj := &plumbing.MemoryObject{}
	obj.SetType(plumbing.BlobObject)
	obj.Write([]byte("a memory\n"))
	p, err := writePack(gitDir, []plumbing.EncodedObject{obj})
	if err != nil {
		t.Fatal(err)
	}
	defer p.discard()
	for kind, name := range map[string]string{"pack": p.tmpPack, "idx": p.tmpIdx} {
		if want := fmt.Sprintf("tmp_%s_curator-%d-", kind, os.Getpid()); !strings.HasPrefix(filepath.Base(name), want) {
			t.Errorf("the %s is written as %s, want a name starting %s", kind, filepath.Base(name), want)
		}
	}
}
