package cache

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/internal/filestat"
)

// The memory index decoder never panics on a damaged file, and what it
// decodes encodes back to entries that decode to the same values.
func FuzzMemoryIndex(f *testing.F) {
	// Seed: the index a real windowed listing writes.
	dir := f.TempDir()
	s, _, err := mdstore.Init(dir)
	if err != nil {
		f.Fatal(err)
	}
	for i, at := range []string{"2026-11-29T09:10:00Z", "2026-11-29T11:10:00.5Z", "2026-11-30T01:00:00Z"} {
		id := string(rune('a' + i))
		data := "---\nid: " + id + "\ntype: fact\nbrief: b\ningestion_time: " + at + "\n---\n"
		if err := os.WriteFile(s.Path("memory/inbox/"+id+".md"), []byte(data), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	q := mdstore.MemoryQuery{Status: "inbox", From: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC), To: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
	if _, err := ListMemories(s, q); err != nil {
		f.Fatal(err)
	}
	if data, err := os.ReadFile(s.Path(memoryIndexFile("memory/inbox"))); err == nil {
		f.Add(bytes.TrimPrefix(data, []byte(indexMagic)))
	}
	f.Add([]byte{})
	f.Add([]byte{0, 1, 'x'})
	f.Fuzz(func(t *testing.T, data []byte) {
		var recs []indexRecord
		if !eachIndexRecord(data, func(r indexRecord) { recs = append(recs, r) }) {
			return
		}
		var out []byte
		for _, r := range recs {
			out = appendIndexRecord(out, string(r.rel), filestat.Stat{Size: r.size, Mtime: r.mtime}, r.summary(), r.prefix, r.fields)
		}
		var back []indexRecord
		if !eachIndexRecord(out, func(r indexRecord) { back = append(back, r) }) {
			t.Fatal("an encoded index does not decode")
		}
		if len(back) != len(recs) {
			t.Fatalf("%d entries, %d after a round trip", len(recs), len(back))
		}
		for i, r := range recs {
			b := back[i]
			if !bytes.Equal(b.rel, r.rel) || !bytes.Equal(b.typ, r.typ) || b.size != r.size || b.mtime != r.mtime || !b.ingestion.Equal(r.ingestion) ||
				!b.due.Equal(r.due) || b.prefix != r.prefix || b.briefHash != r.briefHash {
				t.Fatalf("entry %d: %+v, after a round trip %+v", i, r, b)
			}
		}
	})
}
