package cache

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

func writeMem(t *testing.T, s *mdstore.Store, id, at string) {
	t.Helper()
	data := fmt.Sprintf("---\nid: %s\ntype: fact\nbrief: b\ningestion_time: %s\n---\n", id, at)
	if err := os.WriteFile(s.Path("memory/inbox/"+id+".md"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The memory index must never change what a listing returns.
func TestWindowListingSeesEditsDespiteTheIndex(t *testing.T) {
	s, _ := newStore(t)
	writeMem(t, s, "a", "2026-11-29T09:10:00Z")
	writeMem(t, s, "b", "2026-11-29T11:10:00Z")
	q := mdstore.MemoryQuery{Status: "inbox", From: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC), To: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
	ids := func() string {
		res, err := ListMemories(s, q)
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, m := range res.Memories {
			out += m.ID + " "
		}
		return out
	}
	if got := ids(); got != "a " {
		t.Fatalf("first listing: %q", got)
	}
	if _, err := os.Stat(s.Path(memoryIndexFile("memory/inbox"))); err != nil {
		t.Fatalf("no index written: %v", err)
	}
	// b moves into the window (a longer line: the size changes too)
	writeMem(t, s, "b", "2026-11-29T09:20:00.5Z")
	// a new file appears, another disappears
	writeMem(t, s, "c", "2026-11-29T09:30:00Z")
	os.Remove(s.Path("memory/inbox/a.md"))
	if got := ids(); got != "b c " {
		t.Fatalf("after edits: %q", got)
	}
	// times beyond what nanoseconds since 1970 can hold are cached exactly
	writeMem(t, s, "far", "2300-01-01T00:00:00Z")
	q.To = time.Time{}
	if got := ids(); got != "b c far " {
		t.Fatalf("with a far future entry: %q", got)
	}
	if got := ids(); got != "b c far " {
		t.Fatalf("with a far future entry, from the index: %q", got)
	}
	os.Remove(s.Path("memory/inbox/far.md"))
	q.To = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	// a corrupt index is ignored
	os.WriteFile(s.Path(memoryIndexFile("memory/inbox")), []byte("garbage\x00\tline\n"), 0o644)
	if got := ids(); got != "b c " {
		t.Fatalf("with a corrupt index: %q", got)
	}
}

// A file the index knows to lie outside the window is not read again while
// its size and mtime are unchanged; once either changes it is read again.
func TestWindowListingSkipsIndexedFilesOutsideTheWindow(t *testing.T) {
	s, _ := newStore(t)
	writeMem(t, s, "in", "2026-11-29T09:10:00Z")
	writeMem(t, s, "out", "2026-11-29T11:10:00Z")
	q := mdstore.MemoryQuery{Status: "inbox", From: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC), To: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
	list := func() *mdstore.MemoryList {
		t.Helper()
		res, err := ListMemories(s, q)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := list(); len(res.Memories) != 1 || len(res.Invalid) != 0 {
		t.Fatalf("first listing: %+v", res)
	}
	path := s.Path("memory/inbox/out.md")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// same size, same mtime, unreadable content: the index says "outside"
	os.WriteFile(path, bytes.Repeat([]byte{'x'}, int(fi.Size())), 0o644)
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	if res := list(); len(res.Memories) != 1 || len(res.Invalid) != 0 {
		t.Fatalf("the indexed file was read: %+v", res.Invalid)
	}
	// a new mtime: read again, and reported
	os.Chtimes(path, fi.ModTime().Add(time.Second), fi.ModTime().Add(time.Second))
	if res := list(); len(res.Invalid) != 1 || res.Invalid[0].Path != "memory/inbox/out.md" {
		t.Fatalf("the changed file was not read: %+v", res.Invalid)
	}
}

// The memory index answers a summary listing (observation windows due, one
// dedup key) as a full read of the files does, and each entry holds the
// summary its file reads as.
func TestIndexAnswersAsAFullRead(t *testing.T) {
	s, _ := newStore(t)
	os.MkdirAll(s.Path("memory/confirmed/fact"), 0o755)
	os.MkdirAll(s.Path("memory/trash"), 0o755)
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	briefs := []string{"The staging database is reset nightly", "The staging database is reset nightly, twice on Fridays and once on Sundays", "短い", "Ünïcödé brief that runs past the dedup prefix of forty runes", ""}
	observations := []string{
		"",
		"observation:\n  outcome: pending\n  started_at: %s\n  window_days: 7\n",
		"observation:\n  outcome: pending\n  started_at: \"%s\"\n  window_days: 3\n",
		"observation:\n  outcome: held\n  started_at: %s\n  window_days: 7\n",
		"observation:\n  outcome: pending\n  started_at: %s\n  window_days: -1\n",
		"observation:\n  outcome: pending\n  started_at: not a time %s\n  window_days: 7\n",
	}
	n, unreadable := 0, 0
	for _, dir := range []string{"memory/confirmed/fact", "memory/trash", "memory/inbox"} {
		status := map[string]string{"memory/confirmed/fact": "confirmed", "memory/trash": "trash", "memory/inbox": "inbox"}[dir]
		for i := 0; i < 60; i++ {
			n++
			id := fmt.Sprintf("m-%03d", n)
			started := base.Add(time.Duration(n) * 7 * time.Hour).Format(time.RFC3339)
			obs := observations[n%len(observations)]
			if strings.Contains(obs, "-1") || strings.Contains(obs, "not a time") {
				unreadable++ // a window that cannot be read: the file is invalid
			}
			if obs != "" {
				obs = fmt.Sprintf(obs, started)
			}
			data := fmt.Sprintf("---\nid: %s\ntype: fact\nstatus: %s\nbrief: %q\ningestion_time: %s\n%s---\nbody\n", id, status, briefs[n%len(briefs)], base.Add(time.Duration(n)*time.Hour).Format(time.RFC3339), obs)
			if err := os.WriteFile(s.Path(dir+"/"+id+".md"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	listing := func(q mdstore.MemoryQuery) string {
		t.Helper()
		res, err := ListMemories(s, q)
		if err != nil {
			t.Fatal(err)
		}
		out := fmt.Sprintf("%d invalid;", len(res.Invalid))
		for _, m := range res.Memories {
			out += " " + m.Path
		}
		return out
	}
	due := func(now time.Time) func(mdstore.MemorySummary) bool {
		return func(m mdstore.MemorySummary) bool { return !m.ObservationDue.IsZero() && !m.ObservationDue.After(now) }
	}
	queries := map[string]mdstore.MemoryQuery{}
	for _, status := range []string{"confirmed", "trash", "inbox", ""} {
		for d := 0; d < 40; d += 9 {
			queries[fmt.Sprintf("%s due on day %d", status, d)] = mdstore.MemoryQuery{Status: status, Match: due(base.Add(time.Duration(d) * 24 * time.Hour))}
		}
		for _, b := range briefs {
			h := mdstore.BriefHash(b, s.DedupPrefix())
			queries[status+" key "+b] = mdstore.MemoryQuery{Status: status, Match: func(m mdstore.MemorySummary) bool { return m.Type == "fact" && m.BriefHash == h }}
		}
	}
	check := func(when string) {
		t.Helper()
		for name, q := range queries {
			os.Rename(s.Path(memoryIndexDir), s.Path(memoryIndexDir+".kept"))
			full := listing(q) // no index: every file read
			os.RemoveAll(s.Path(memoryIndexDir))
			os.Rename(s.Path(memoryIndexDir+".kept"), s.Path(memoryIndexDir))
			listing(mdstore.MemoryQuery{Status: q.Status, Match: func(mdstore.MemorySummary) bool { return false }}) // the index learns every file
			if got := listing(q); got != full {
				t.Fatalf("%s, %s: from the index\n%s\nfull read\n%s", when, name, got, full)
			}
		}
		// every entry holds its file's summary
		entries := 0
		eachIndexed(s, func(r indexRecord) {
			entries++
			m, err := s.ReadMemory(string(r.rel))
			if err != nil {
				t.Fatalf("%s: %v", r.rel, err)
			}
			if want := m.Summary(r.prefix); r.summary() != want || r.prefix != s.DedupPrefix() {
				t.Fatalf("%s, %s: index holds %+v (prefix %d), the file %+v", when, r.rel, r.summary(), r.prefix, want)
			}
		})
		if entries != n-unreadable {
			t.Fatalf("%s: %d index entries, want %d", when, entries, n-unreadable)
		}
	}
	check("default prefix")
	s.Config.Memory.DedupPrefix = 12 // another dedup prefix: every brief hashed again
	for _, b := range briefs {
		h := mdstore.BriefHash(b, 12)
		queries["prefix 12 key "+b] = mdstore.MemoryQuery{Status: "confirmed", Match: func(m mdstore.MemorySummary) bool { return m.BriefHash == h }}
	}
	check("prefix 12")
}

func TestBriefHashIsTheDedupPrefix(t *testing.T) {
	if mdstore.BriefHash("abcdef", 3) != mdstore.BriefHash("abcxyz", 3) || mdstore.BriefHash("abc", 3) != mdstore.BriefHash("abc", 40) {
		t.Fatal("briefs of one prefix hash differently")
	}
	if mdstore.BriefHash("短い文", 2) != mdstore.BriefHash("短い", 2) || mdstore.BriefHash("短い文", 2) == mdstore.BriefHash("短", 2) {
		t.Fatal("runes, not bytes, make the prefix")
	}
}

// eachIndexed calls f for every entry of the memory index, folder by
// folder.
func eachIndexed(s *mdstore.Store, f func(indexRecord)) {
	for _, dir := range mdstore.MemoryFolders("", "") {
		eachIndexRecord(readMemoryIndex(s, dir), f)
	}
}

// A listing reads and writes the index files of the folders it lists only;
// a folder's damaged file is written again by the next listing of it.
func TestIndexFilesPerFolder(t *testing.T) {
	s, _ := newStore(t)
	dirs := []string{"memory/confirmed/fact", "memory/inbox", "memory/trash"}
	status := map[string]string{"memory/confirmed/fact": "confirmed", "memory/inbox": "inbox", "memory/trash": "trash"}
	for d, dir := range dirs {
		os.MkdirAll(s.Path(dir), 0o755)
		for i := range 20 {
			id := fmt.Sprintf("m-%d-%02d", d, i)
			data := fmt.Sprintf("---\nid: %s\ntype: fact\nstatus: %s\nbrief: b %s\ningestion_time: 2026-11-0%dT00:00:%02dZ\n---\n", id, status[dir], id, d+1, i)
			if err := os.WriteFile(s.Path(dir+"/"+id+".md"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	list := func(st string) {
		t.Helper()
		if _, err := ListMemories(s, mdstore.MemoryQuery{Status: st, Match: func(mdstore.MemorySummary) bool { return false }}); err != nil {
			t.Fatal(err)
		}
	}
	entries := func(dir string) int {
		n := 0
		eachIndexRecord(readMemoryIndex(s, dir), func(r indexRecord) {
			if !bytes.HasPrefix(r.rel, []byte(dir+"/")) {
				t.Fatalf("%s in the index of %s", r.rel, dir)
			}
			n++
		})
		return n
	}
	stamp := func(dir string) string {
		fi, err := os.Stat(s.Path(memoryIndexFile(dir)))
		if err != nil {
			return err.Error()
		}
		return fmt.Sprint(fi.ModTime().UnixNano(), fi.Size())
	}
	// An index file of an older version, where the folder is now.
	os.MkdirAll(s.Path(".cache"), 0o755)
	if err := os.WriteFile(s.Path(memoryIndexDir), []byte(indexMagic), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		list(status[dir])
		if n := entries(dir); n != 20 {
			t.Fatalf("%s: %d entries, want 20", dir, n)
		}
	}
	// A change in the inbox rewrites the inbox's file only.
	before := map[string]string{}
	for _, dir := range dirs {
		before[dir] = stamp(dir)
	}
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(s.Path("memory/inbox/m-1-05.md"), []byte("---\nid: m-1-05\ntype: fact\nstatus: inbox\nbrief: changed\ningestion_time: 2026-11-02T00:00:05Z\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list("inbox")
	for _, dir := range dirs {
		if changed := stamp(dir) != before[dir]; changed != (dir == "memory/inbox") {
			t.Fatalf("%s: index file rewritten %v after a change in the inbox", dir, changed)
		}
		if n := entries(dir); n != 20 {
			t.Fatalf("%s: %d entries, want 20", dir, n)
		}
	}
	// A damaged file is written again by the next listing of its folder.
	p := s.Path(memoryIndexFile("memory/trash"))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data[:len(data)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	if n := entries("memory/trash"); n != 0 {
		t.Fatalf("a damaged file gives %d entries", n)
	}
	list("trash")
	if n := entries("memory/trash"); n != 20 {
		t.Fatalf("after a listing of a damaged trash index: %d entries, want 20", n)
	}
}

// Two listings whose index writes wait for the run's end write both
// folders' files, also when they first replace the single index file of
// an older version (the writes run at once).
func TestDeferredIndexWritesAfterAnUpgrade(t *testing.T) {
	s, _ := newStore(t)
	for _, dir := range []string{"memory/inbox", "memory/trash"} {
		os.MkdirAll(s.Path(dir), 0o755)
		for i := range 5 {
			id := fmt.Sprintf("m-%s-%d", dir[len("memory/"):], i)
			data := fmt.Sprintf("---\nid: %s\ntype: fact\nbrief: b\ningestion_time: 2026-11-01T00:00:0%dZ\n---\n", id, i)
			if err := os.WriteFile(s.Path(dir+"/"+id+".md"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	never := func(mdstore.MemorySummary) bool { return false }
	os.MkdirAll(s.Path(".cache"), 0o755)
	for round := range 100 {
		os.RemoveAll(s.Path(memoryIndexDir))
		if err := os.WriteFile(s.Path(memoryIndexDir), []byte(indexMagic), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, st := range []string{"inbox", "trash"} {
			if _, err := ListMemories(s, mdstore.MemoryQuery{Status: st, DeferIndex: true, Match: never}); err != nil {
				t.Fatal(err)
			}
		}
		s.WriteCaches()
		for _, dir := range []string{"memory/inbox", "memory/trash"} {
			if readMemoryIndex(s, dir) == nil {
				t.Fatalf("round %d: no index of %s", round, dir)
			}
		}
	}
}

// A temporary file that a process killed while writing the index left
// behind is removed by the next write; one being written now is not.
func TestIndexWriteRemovesStaleTemporaryFiles(t *testing.T) {
	s, _ := newStore(t)
	writeMem(t, s, "a", "2026-11-29T09:10:00Z")
	dir := s.Path(memoryIndexDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stale, fresh := dir+"/.tmp-memory-inbox-123", dir+"/.tmp-memory-inbox-456"
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("half an index"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := ListMemories(s, mdstore.MemoryQuery{Status: "inbox", Match: func(mdstore.MemorySummary) bool { return true }}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a write in progress lost its temporary file: %v", err)
	}
	if readMemoryIndex(s, "memory/inbox") == nil {
		t.Error("no index written")
	}
}
