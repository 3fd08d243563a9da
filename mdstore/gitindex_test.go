package mdstore

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Our index encoder writes exactly what go-git's writes.
func TestEncodeIndexMatchesGoGit(t *testing.T) {
	idx := &index.Index{Version: 2}
	at := time.Date(2026, 11, 29, 9, 0, 0, 123456789, time.UTC)
	for i := 0; i < 300; i++ {
		idx.Entries = append(idx.Entries, &index.Entry{
			Name: fmt.Sprintf(".curator/memory/inbox/m%04d-%s.md", (i*7919)%1000, string(rune('a'+i%26))),
			Hash: plumbing.ComputeHash(plumbing.BlobObject, []byte{byte(i)}), Mode: filemode.Regular,
			CreatedAt: at, ModifiedAt: at.Add(time.Duration(i) * time.Second), Dev: 1, Inode: uint32(i), UID: 0, GID: 0, Size: uint32(i * 3),
			SkipWorktree: i == 17, IntentToAdd: i == 18,
		})
	}
	idx.Entries = append(idx.Entries, &index.Entry{Name: string(bytes.Repeat([]byte("x"), 5000)), Mode: filemode.Regular})
	var want bytes.Buffer
	ref := &index.Index{Version: 3, Entries: append([]*index.Entry(nil), idx.Entries...)}
	if err := index.NewEncoder(&want).Encode(ref); err != nil {
		t.Fatal(err)
	}
	got, err := encodeIndex(idx)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("encodings differ (%d vs %d bytes)", len(got), want.Len())
	}
	back := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(got)).Decode(back); err != nil || len(back.Entries) != len(idx.Entries) {
		t.Fatalf("go-git cannot read it back: %v", err)
	}
	ours, err := decodeIndex(got)
	if err != nil || len(ours.Entries) != len(idx.Entries) {
		t.Fatalf("decodeIndex: %v", err)
	}
	for i, e := range ours.Entries { // includes the 5000-byte name (length field 0xFFF)
		if w := back.Entries[i]; e.Name != w.Name || e.Hash != w.Hash || e.SkipWorktree != w.SkipWorktree || e.IntentToAdd != w.IntentToAdd || !e.ModifiedAt.Equal(w.ModifiedAt) {
			t.Fatalf("entry %d: %+v, go-git %+v", i, e, w)
		}
	}
}

// decodeIndex reads what git writes: the index of a real repository with
// an extension (the cache tree) decodes to the entries go-git sees.
func TestDecodeIndexMatchesGoGit(t *testing.T) {
	needGit(t)
	s, dir := newStore(t)
	if _, err := s.CommitStore(info("init")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", strings.Repeat("n", 300)+".txt"), []byte("long\n"), 0o644)
	gitCmd(t, dir, "add", "-A")
	gitCmd(t, dir, "commit", "-qm", "user")
	gitCmd(t, dir, "update-index", "--skip-worktree", "a.txt") // an extended (v3) entry
	gitCmd(t, dir, "write-tree")                               // makes sure a TREE extension is there
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	want := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(want); err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) != len(want.Entries) || got.Version != want.Version {
		t.Fatalf("%d entries v%d, go-git %d v%d", len(got.Entries), got.Version, len(want.Entries), want.Version)
	}
	for i := range want.Entries {
		if g, w := *got.Entries[i], *want.Entries[i]; !g.CreatedAt.Equal(w.CreatedAt) || !g.ModifiedAt.Equal(w.ModifiedAt) ||
			g.Name != w.Name || g.Hash != w.Hash || g.Mode != w.Mode || g.Size != w.Size || g.Inode != w.Inode ||
			g.Dev != w.Dev || g.UID != w.UID || g.GID != w.GID || g.Stage != w.Stage || g.SkipWorktree != w.SkipWorktree || g.IntentToAdd != w.IntentToAdd {
			t.Fatalf("entry %d: %+v, go-git %+v", i, g, w)
		}
	}
	// and a round trip through both codecs is stable
	again, err := encodeIndex(got)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := decodeIndex(again); err != nil || len(back.Entries) != len(got.Entries) {
		t.Fatalf("round trip: %v", err)
	}
	data[len(data)-1] ^= 1
	if _, err := decodeIndex(data); err == nil {
		t.Error("a corrupt index was read")
	}
}
