package mdstore

import (
	"bytes"
	"fmt"
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
}
