package live

import (
	"bytes"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// indexedStore is a store with records of every kind (every field, zones,
// nested observation and trashed maps, an unreadable file) and a memory
// index that knows every readable file, as `memory list` leaves it.
func indexedStore(t *testing.T) *mdstore.Store {
	t.Helper()
	s, _ := newStore(t)
	for i := range 30 {
		id := fmt.Sprintf("m%02d", i)
		dir := []string{"memory/inbox", "memory/confirmed/fact", "memory/confirmed/concept", "memory/trash"}[i%4]
		typ := []string{"fact", "fact", "concept", "lesson"}[i%4]
		putFile(t, s, dir+"/"+id+".md", liveMem(id, typ, i, "brief "+id))
	}
	putFile(t, s, "memory/inbox/zoned.md", "---\nid: zoned\ntype: lesson\nbrief: zoned\nscenario: s\nsource_cases: [a, b]\nmaturity: case\n"+
		"trashed: {at: 2026-11-30T00:00:00Z, why: [1, 2.5, null, {k: v}]}\ningestion_time: 2026-11-29T11:20:00.5+02:00\n---\nzoned\n")
	putFile(t, s, "memory/inbox/broken.md", "---\nid: broken\ntype: nonsense\n---\n")
	learnIndex(t, s)
	return s
}

// learnIndex lists every memory folder with a window, which reads and
// learns every file into the memory index.
func learnIndex(t *testing.T, s *mdstore.Store) {
	t.Helper()
	if _, err := cache.ListMemories(s, mdstore.MemoryQuery{From: liveT0.Add(-time.Hour), To: liveT0.Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
}

// The live listing opened from the memory index reads no file the index
// knows as it is, and its listings are those read from the files, field
// for field, in the same order.
func TestLiveMemoriesOpenFromTheIndex(t *testing.T) {
	s := indexedStore(t)
	l := openLive(t, s)
	needFollowing(t, l)
	if l.reads != 1 { // the unreadable file, which the index cannot know
		t.Errorf("opening read %d files, want 1", l.reads)
	}
	checkLive(t, l, s, "opened from the index")

	// A listing opened from the files says the same.
	if err := os.RemoveAll(s.Path(memoryIndexDir)); err != nil {
		t.Fatal(err)
	}
	files := openLive(t, s)
	if files.reads != 32 {
		t.Errorf("without an index opening read %d files, want 32", files.reads)
	}
	for _, q := range liveQueries(s) {
		a, err := l.List(q)
		if err != nil {
			t.Fatal(err)
		}
		b, err := files.List(q)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameList(a, b); d != "" {
			t.Fatalf("List(%s) from the index: %s", describe(q), d)
		}
	}
}

// A damaged index, one of an older format or none makes the opening read
// the files, and the opening writes it again: the next one reads none.
func TestLiveMemoriesRepairTheIndex(t *testing.T) {
	for name, damage := range map[string]func(p string) error{
		"missing": os.Remove,
		"garbage": func(p string) error { return os.WriteFile(p, []byte("garbage\x00\tline\n"), 0o644) },
		"older format": func(p string) error {
			return os.WriteFile(p, []byte("curator-memory-index-3\n"), 0o644)
		},
		"truncated": func(p string) error {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, data[:len(data)-7], 0o644)
		},
		"fields of other files": func(p string) error {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			// Every record's packed id is another one than its file's.
			data = bytes.ReplaceAll(data, []byte("\x03m"), []byte("\x03n"))
			return os.WriteFile(p, data, 0o644)
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := indexedStore(t)
			files, err := os.ReadDir(s.Path(memoryIndexDir))
			if err != nil || len(files) == 0 {
				t.Fatalf("no index files: %v", err)
			}
			for _, f := range files {
				if err := damage(s.Path(memoryIndexDir + "/" + f.Name())); err != nil {
					t.Fatal(err)
				}
			}
			l := openLive(t, s)
			needFollowing(t, l)
			want := 32
			if name == "fields of other files" {
				want = 31 // the zoned record is intact
			}
			if l.reads != want {
				t.Errorf("opening read %d files, want %d", l.reads, want)
			}
			again := openLive(t, s)
			if again.reads != 1 {
				t.Errorf("the next opening read %d files, want 1 (the index is written again)", again.reads)
			}
			checkLive(t, l, s, "opened beside a "+name+" index")
			checkLive(t, again, s, "opened again")
		})
	}
}

// A file changed, added or removed behind the index (while no listing
// followed the store) is seen: only it is read. Changed means a longer
// brief, the same length with another mtime, or a second hard link (read
// again at every listing from then on).
func TestLiveMemoriesSeeAFileChangedBehindTheIndex(t *testing.T) {
	s := indexedStore(t)
	putFile(t, s, "memory/inbox/m00.md", liveMem("m00", "fact", 0, "a brief that is now longer"))
	putFile(t, s, "memory/confirmed/fact/m01.md", liveMem("m01", "fact", 1, "brief M01"))
	past := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	if err := os.Chtimes(s.Path("memory/confirmed/fact/m01.md"), past, past); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(s.Path("memory/inbox/m04.md"), s.Path("m04-elsewhere.md")); err != nil {
		t.Fatal(err)
	}
	putFile(t, s, "memory/confirmed/fact/new.md", liveMem("new", "fact", 5, "new"))
	moveFile(t, s, "memory/trash/m03.md", "memory/inbox/m03.md")
	if err := os.Remove(s.Path("memory/confirmed/concept/m02.md")); err != nil {
		t.Fatal(err)
	}
	l := openLive(t, s)
	needFollowing(t, l)
	if l.reads != 6 { // the three changed, the new and moved files, and the unreadable one
		t.Errorf("opening read %d files, want 6", l.reads)
	}
	checkLive(t, l, s, "changed behind the index")
	got, err := l.List(mdstore.MemoryQuery{Status: "inbox", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Memories) != 1 || got.Memories[0].Brief != "a brief that is now longer" {
		t.Errorf("first inbox record %+v, want the changed m00", got.Memories)
	}
	putFile(t, s, "m04-elsewhere.md", liveMem("m04", "fact", 4, "edited through the other link"))
	checkLive(t, l, s, "edited through another link")
}

// An opening of many records (the sorted orders are made beside the maps)
// lists what the files say, in the same order, from the index and without
// it; records ingested in the same minute are ordered by id.
func TestLiveMemoriesOpenMany(t *testing.T) {
	s, _ := newStore(t)
	for i := range 240 {
		id := fmt.Sprintf("n%03d", (i*37)%240)
		dir := []string{"memory/inbox", "memory/confirmed/fact", "memory/confirmed/concept", "memory/trash", "memory/inbox"}[i%5]
		typ := []string{"fact", "fact", "concept", "lesson", "concept"}[i%5]
		putFile(t, s, dir+"/"+id+".md", liveMem(id, typ, i%7, "brief "+id))
	}
	putFile(t, s, "memory/inbox/broken.md", "---\nid: broken\ntype: nonsense\n---\n")
	learnIndex(t, s)
	l := openLive(t, s)
	needFollowing(t, l)
	if l.reads != 1 {
		t.Errorf("opening read %d files, want 1", l.reads)
	}
	checkLive(t, l, s, "240 opened from the index")
	if err := os.RemoveAll(s.Path(memoryIndexDir)); err != nil {
		t.Fatal(err)
	}
	checkLive(t, openLive(t, s), s, "240 opened from the files")
}
