package gitcommit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
	// spliceIndex reads every entry (extended ones, a 5000-byte name) and,
	// with nothing to change, writes the same bytes.
	if same, err := spliceIndex(got, nil, nil); err != nil || !bytes.Equal(same, got) {
		t.Fatalf("splice without changes: %v", err)
	}
}

// spliceIndex edits what git writes: on the index of a real repository
// (a cache-tree extension, an extended v3 entry, a name longer than 0xFFF
// bytes) it drops and adds exactly the named entries and keeps every other
// one as go-git reads it.
func TestSpliceIndexMatchesGoGit(t *testing.T) {
	_, dir := committedStore(t)
	long := "sub/" + strings.Repeat("n", 5000) + ".txt"
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "z.txt"), []byte("z\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(long)), []byte("long\n"), 0o644); err != nil {
		long = "sub/" + strings.Repeat("n", 250) + ".txt" // the file system's name limit
		os.WriteFile(filepath.Join(dir, filepath.FromSlash(long)), []byte("long\n"), 0o644)
	}
	gitCmd(t, dir, "add", "-A")
	gitCmd(t, dir, "commit", "-qm", "user")
	gitCmd(t, dir, "update-index", "--skip-worktree", "a.txt") // an extended (v3) entry
	gitCmd(t, dir, "write-tree")                               // makes sure a TREE extension is there
	path := filepath.Join(dir, ".git", "index")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(b []byte) *index.Index {
		t.Helper()
		idx := &index.Index{}
		if err := index.NewDecoder(bytes.NewReader(b)).Decode(idx); err != nil {
			t.Fatalf("go-git cannot read the index: %v", err)
		}
		return idx
	}
	before := decode(data)
	at := time.Date(2026, 11, 29, 9, 0, 0, 5, time.UTC)
	add := []*index.Entry{
		{Name: "z.txt", Hash: plumbing.ComputeHash(plumbing.BlobObject, []byte("new z\n")), Mode: filemode.Regular, ModifiedAt: at, Size: 6},
		{Name: "b/new.md", Hash: plumbing.ComputeHash(plumbing.BlobObject, []byte("b\n")), Mode: filemode.Regular, ModifiedAt: at, Size: 2},
	}
	got, err := spliceIndex(data, map[string]bool{"z.txt": true, ".curator/config.yaml": true}, add)
	if err != nil {
		t.Fatal(err)
	}
	after := decode(got)
	var want []*index.Entry
	for _, e := range before.Entries {
		if e.Name != "z.txt" && e.Name != ".curator/config.yaml" {
			want = append(want, e)
		}
	}
	want = append(want, add...)
	sort.Slice(want, func(i, j int) bool { return want[i].Name < want[j].Name })
	if len(after.Entries) != len(want) || after.Version != before.Version {
		t.Fatalf("%d entries v%d, want %d v%d", len(after.Entries), after.Version, len(want), before.Version)
	}
	for i, w := range want {
		if g := after.Entries[i]; !g.CreatedAt.Equal(w.CreatedAt) || !g.ModifiedAt.Equal(w.ModifiedAt) ||
			g.Name != w.Name || g.Hash != w.Hash || g.Mode != w.Mode || g.Size != w.Size || g.Inode != w.Inode ||
			g.Dev != w.Dev || g.UID != w.UID || g.GID != w.GID || g.Stage != w.Stage || g.SkipWorktree != w.SkipWorktree || g.IntentToAdd != w.IntentToAdd {
			t.Fatalf("entry %d: %+v, want %+v", i, g, w)
		}
	}
	// real git reads it, and sees the long name and the skip-worktree bit
	if err := os.WriteFile(path, got, 0o644); err != nil {
		t.Fatal(err)
	}
	ls := gitCmd(t, dir, "ls-files", "-v")
	if !strings.Contains(ls, "S a.txt") || !strings.Contains(ls, long) || !strings.Contains(ls, "b/new.md") || strings.Contains(ls, ".curator/config.yaml") {
		t.Errorf("git ls-files -v:\n%s", ls)
	}
	data[len(data)-1] ^= 1
	if _, err := spliceIndex(data, nil, nil); err == nil {
		t.Error("a corrupt index was edited")
	}
}

// A split index is refused by name, not edited into a broken one.
func TestSpliceIndexRefusesSplitIndex(t *testing.T) {
	_, dir := committedStore(t)
	gitCmd(t, dir, "update-index", "--split-index")
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spliceIndex(data, nil, nil); err == nil || !strings.Contains(err.Error(), "split") {
		t.Errorf("split index: %v", err)
	}
}
