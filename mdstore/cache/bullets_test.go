package cache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/internal/filestat"
)

// testAnalyser stands for the engine's analysis: the words of the text.
var testAnalyser = Analyser{Version: "test 1", Words: strings.Fields}

func writeTestBullet(t *testing.T, s *mdstore.Store, cat, id, body string) string {
	t.Helper()
	rel := mdstore.BulletPath(true, cat, id)
	if err := os.MkdirAll(filepath.Dir(s.Path(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "---\nid: " + id + "\ncategory: " + cat + "\nconfidence: 0.6\nhelpful_count: 2\n---\n\n" + body + "\n"
	if err := os.WriteFile(s.Path(rel), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return rel
}

func indexed(t *testing.T, s *mdstore.Store) *IndexedBullets {
	t.Helper()
	ib, err := Bullets(s, testAnalyser)
	if err != nil {
		t.Fatal(err)
	}
	s.WriteCaches()
	return ib
}

func words(ib *IndexedBullets, b *BulletSummary) string {
	var out []string
	ts, _ := b.Terms()
	for _, t := range ts {
		out = append(out, ib.Words[t])
	}
	return strings.Join(out, " ")
}

// The bullet index gives what reading the files gives, reads only files it
// does not hold, takes in what a save writes, and starts over when damaged.
func TestBulletIndex(t *testing.T) {
	s, _ := newStore(t)
	writeTestBullet(t, s, "strategy", "STRAT-001", "check the page count")
	writeTestBullet(t, s, "api", "API-001", "log in first")
	ib := indexed(t, s)
	if ib.Read != 2 || len(ib.Active) != 2 || ib.Active[0].ID != "API-001" || words(ib, ib.Active[1]) != "check the page count" {
		t.Fatalf("first listing: read %d, %+v", ib.Read, ib.Active)
	}
	if b := ib.Active[0]; b.HelpfulCount != 2 || b.Confidence != 0.6 || b.Category != "api" || b.Bullet().Content != "" || b.ContentLen != len("log in first") {
		t.Fatalf("summary %+v", b)
	}
	ib = indexed(t, s)
	if ib.Read != 0 || len(ib.Active) != 2 {
		t.Fatalf("second listing read %d files", ib.Read)
	}
	// A summary's whole bullet, decoded from the index when asked, is the
	// file's frontmatter.
	for _, sum := range ib.Active {
		want, err := s.ReadBullet(sum.Path)
		if err != nil {
			t.Fatal(err)
		}
		want = want.FieldsOnly()
		if got := sum.Bullet(); !reflect.DeepEqual(got, want) {
			t.Errorf("decoded bullet\n%+v\nwant\n%+v", got, want)
		}
	}

	// A save: the files it writes are taken in when the caches are written,
	// so the next listing reads nothing.
	ib, _ = Bullets(s, testAnalyser)
	cs := &mdstore.Changeset{}
	b, err := s.ReadBullet(ib.Active[1].Path)
	if err != nil {
		t.Fatal(err)
	}
	b.HelpfulCount = 7
	data, _ := b.Encode()
	cs.Write(b.Path, data)
	cs.Move(mdstore.BulletPath(true, "api", "API-001"), mdstore.BulletPath(false, "api", "API-001"), []byte("---\nid: API-001\ncategory: api\n---\n\nlog in first\n"))
	if _, err := save(s, cs, info("r1"), mdstore.SaveOptions{NoCommit: true}); err != nil {
		t.Fatal(err)
	}
	ib = indexed(t, s)
	if ib.Read != 0 || len(ib.Active) != 1 || ib.Active[0].HelpfulCount != 7 || len(ib.Archived) != 1 {
		t.Fatalf("after a save: read %d, active %+v, archived %d", ib.Read, ib.Active, len(ib.Archived))
	}

	// A damaged index is rebuilt.
	p := filepath.Join(s.Dir, bulletIndexPath)
	raw, _ := os.ReadFile(p)
	if err := os.WriteFile(p, raw[:len(raw)-5], 0o644); err != nil {
		t.Fatal(err)
	}
	ib = indexed(t, s)
	if ib.Read != 2 || len(ib.Active) != 1 || words(ib, ib.Active[0]) != "check the page count" {
		t.Fatalf("damaged index: read %d, %+v", ib.Read, ib.Active)
	}
	// So is one whose bytes still split into words and entries but
	// changed under its checksum.
	raw, _ = os.ReadFile(p)
	at := bytes.Index(raw, []byte("check"))
	if at < 0 {
		t.Fatal("the index holds no word check")
	}
	raw[at] = 'k'
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	ib = indexed(t, s)
	if ib.Read != 2 || len(ib.Active) != 1 || words(ib, ib.Active[0]) != "check the page count" {
		t.Fatalf("index changed under its checksum: read %d, %+v", ib.Read, ib.Active)
	}
	// Another analysis: rebuilt too.
	other := testAnalyser
	other.Version = "test 2"
	other.Words = func(s string) []string { return strings.Fields(strings.ToUpper(s)) }
	ib2, err := Bullets(s, other)
	if err != nil || ib2.Read != 2 || ib2.Words[firstTerm(ib2.Active[0])] != "CHECK" {
		t.Fatalf("other analysis: %v %+v", err, ib2)
	}
}

// A run trusts the entries of a folder whose times did not change, without
// a stat of each file: a file added, removed, or replaced by renaming a new
// one over it (as curator, git and most editors write) is seen, even with
// its size and modification time restored. An edit in place that keeps
// the folder unchanged is not seen in the listing (the run that uses the
// bullet reads its file and updates its entry) until the file is read or
// the cache is deleted.
func TestBulletIndexSeesFolderChanges(t *testing.T) {
	s, _ := newStore(t)
	one := writeTestBullet(t, s, "strategy", "STRAT-001", "check the page count")
	two := writeTestBullet(t, s, "strategy", "STRAT-002", "log in first")
	dir := filepath.Dir(s.Path(one))
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(dir, past, past); err != nil { // a folder not changed lately
		t.Fatal(err)
	}
	if ib := indexed(t, s); ib.Read != 2 {
		t.Fatalf("first listing read %d files", ib.Read)
	}
	if ib := indexed(t, s); ib.Read != 0 || len(ib.Active) != 2 {
		t.Fatalf("unchanged folder: read %d, %d bullets", ib.Read, len(ib.Active))
	}

	edit := func(rel, from, to string) []byte {
		data, _ := os.ReadFile(s.Path(rel))
		edited := []byte(strings.Replace(string(data), from, to, 1))
		if len(edited) != len(data) {
			t.Fatal("the edit must keep the size")
		}
		return edited
	}
	// Replaced by a rename, size and modification time restored.
	fi, _ := os.Stat(s.Path(one))
	tmp := s.Path(one) + ".tmp"
	if err := os.WriteFile(tmp, edit(one, "page count", "page total"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, s.Path(one)); err != nil {
		t.Fatal(err)
	}
	ib := indexed(t, s)
	if ib.Read != 1 || words(ib, ib.Active[0]) != "check the page total" {
		t.Fatalf("replaced file missed: read %d, words %q", ib.Read, words(ib, ib.Active[0]))
	}
	// Added and removed by hand.
	writeTestBullet(t, s, "strategy", "STRAT-003", "save the draft")
	if err := os.Remove(s.Path(two)); err != nil {
		t.Fatal(err)
	}
	ib = indexed(t, s)
	if len(ib.Active) != 2 || ib.Active[1].ID != "STRAT-003" {
		t.Fatalf("added/removed files missed: %+v", ib.Active)
	}
	ib = indexed(t, s)
	if ib.Read != 0 || len(ib.Active) != 2 {
		t.Fatalf("after the hand changes: read %d, %d bullets", ib.Read, len(ib.Active))
	}

	// An edit in place, the folder's times restored: the listing keeps
	// the entry, a read of the bullet gives the edit, and deleting the
	// cache takes it in.
	if err := os.Chtimes(dir, past, past); err != nil {
		t.Fatal(err)
	}
	indexed(t, s)
	if err := os.WriteFile(s.Path(one), edit(one, "page total", "page sizes"), 0o644); err != nil {
		t.Fatal(err)
	}
	ib = indexed(t, s)
	if ib.Read != 0 || words(ib, ib.Active[0]) != "check the page total" {
		t.Fatalf("edit in place: read %d, words %q (the listing is expected to keep the entry)", ib.Read, words(ib, ib.Active[0]))
	}
	// A run that uses the bullet reads its file, and its index update
	// takes the edit in.
	if _, err := Bullets(s, testAnalyser); err != nil {
		t.Fatal(err)
	}
	if b, err := s.ReadBullet(one); err != nil || !strings.Contains(b.Content, "page sizes") {
		t.Fatalf("reading the bullet: %v %+v", err, b)
	}
	s.WriteCaches()
	if ib = indexed(t, s); words(ib, ib.Active[0]) != "check the page sizes" {
		t.Fatalf("after a run read the bullet: %q", words(ib, ib.Active[0]))
	}
	// Another edit in place, seen once the cache is deleted.
	if err := os.WriteFile(s.Path(one), edit(one, "page sizes", "page width"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(s.Dir, bulletIndexPath)); err != nil {
		t.Fatal(err)
	}
	if ib = indexed(t, s); words(ib, ib.Active[0]) != "check the page width" {
		t.Fatalf("after deleting the cache: %q", words(ib, ib.Active[0]))
	}
}

// An entry's words are read as binary.Uvarint reads them: a damaged list
// (cut short, too long, a word id outside the table or above 32 bits) makes
// the entry unusable, so its file is read again.
func TestBulletIndexTermsDecodeAsUvarint(t *testing.T) {
	reference := func(b []byte, n int, words uint32) ([]uint32, bool) {
		out := make([]uint32, n)
		for i := range out {
			v, k := binary.Uvarint(b)
			if k <= 0 || v >= uint64(words) {
				return nil, false
			}
			out[i], b = uint32(v), b[k:]
		}
		return out, len(b) == 0
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		var b []byte
		n := rnd.IntN(6)
		for range n + rnd.IntN(2) {
			v := rnd.Uint64N(1 << (1 + rnd.IntN(40)))
			b = binary.AppendUvarint(b, v)
		}
		if rnd.IntN(4) == 0 && len(b) > 0 {
			b = b[:rnd.IntN(len(b))] // cut short
		}
		words := uint32(1 + rnd.Uint64N(1<<33)%(1<<32-1))
		want, wantOK := reference(b, n, words)
		got := make([]uint32, n)
		ok := decodeTerms(string(b), got, words)
		if ok != wantOK || ok && !slices.Equal(got, want) {
			t.Fatalf("case %d: %x (%d words below %d): got %v %v, want %v %v", i, b, n, words, got, ok, want, wantOK)
		}
	}
}

func firstTerm(b *BulletSummary) uint32 {
	ts, ok := b.Terms()
	if !ok || len(ts) == 0 {
		return ^uint32(0)
	}
	return ts[0]
}

// A category's token stays while its bullets and their words are the same
// (a save of counters keeps it) and changes with them (a save of new words,
// a file added by hand), and a folder holding a file that cannot be read
// has none.
func TestCategoryTokenFollowsBullets(t *testing.T) {
	s, _ := newStore(t)
	writeTestBullet(t, s, "strategy", "STRAT-001", "check the page count")
	writeTestBullet(t, s, "api", "API-001", "log in first")
	first := indexed(t, s)
	strat, api := first.CategoryToken("strategy"), first.CategoryToken("api")
	if strat == 0 || api == 0 || strat == api {
		t.Fatalf("tokens %d %d", strat, api)
	}
	same := func(step string, wantStrat, wantAPI bool) {
		t.Helper()
		ib := indexed(t, s)
		if got := ib.CategoryToken("strategy") == strat; got != wantStrat {
			t.Errorf("%s: strategy token kept = %v, want %v", step, got, wantStrat)
		}
		if got := ib.CategoryToken("api") == api; got != wantAPI {
			t.Errorf("%s: api token kept = %v, want %v", step, got, wantAPI)
		}
		strat, api = ib.CategoryToken("strategy"), ib.CategoryToken("api")
	}
	same("nothing changed", true, true)
	same("nothing changed again", true, true)

	// Saves that write one bullet of strategy: its counters only, then
	// its words.
	save := func(run string, change func(b *mdstore.Bullet)) {
		t.Helper()
		Bullets(s, testAnalyser)
		b, err := s.ReadBullet(mdstore.BulletPath(true, "strategy", "STRAT-001"))
		if err != nil {
			t.Fatal(err)
		}
		change(b)
		data, err := b.Encode()
		if err != nil {
			t.Fatal(err)
		}
		cs := &mdstore.Changeset{}
		cs.Write(b.Path, data)
		if _, err := save(s, cs, info(run), mdstore.SaveOptions{NoCommit: true}); err != nil {
			t.Fatal(err)
		}
	}
	save("r1", func(b *mdstore.Bullet) { b.HelpfulCount = 9 })
	same("after a save of strategy's counters", true, true)
	save("r2", func(b *mdstore.Bullet) { b.Content = "check the page count twice" })
	same("after a save of strategy's words", false, true)

	// A bullet added by hand to api.
	writeTestBullet(t, s, "api", "API-002", "use the token")
	same("after a bullet added to api", true, false)

	// A bullet of api in the folder of strategy cannot be read: strategy
	// has no token until it is fixed.
	rel := mdstore.BulletPath(true, "strategy", "API-003")
	if err := os.WriteFile(s.Path(rel), []byte("---\nid: API-003\ncategory: api\n---\n\nanother one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ib := indexed(t, s); len(ib.Invalid) != 1 || ib.CategoryToken("strategy") != 0 || ib.CategoryToken("api") != api {
		t.Fatalf("a bullet in another category's folder: invalid %v, tokens %d %d", ib.Invalid, ib.CategoryToken("strategy"), ib.CategoryToken("api"))
	}
	if err := os.Remove(s.Path(rel)); err != nil {
		t.Fatal(err)
	}
	if ib := indexed(t, s); len(ib.Invalid) != 0 || ib.CategoryToken("strategy") == 0 || ib.CategoryToken("strategy") == strat {
		t.Fatalf("after the fix: invalid %v, strategy token %d (was %d)", ib.Invalid, ib.CategoryToken("strategy"), strat)
	}
}

// The entries of the folders a listing trusts are decoded on every core:
// an entry that no longer decodes has its file read again, in its place,
// and every other bullet of every folder comes from the index as before.
func TestBulletIndexRereadsAnEntryThatDoesNotDecode(t *testing.T) {
	s, _ := newStore(t)
	var want []string
	for _, cat := range []string{"api", "pattern", "strategy", "verification"} {
		for i := range 30 {
			id := fmt.Sprintf("%s-%03d", strings.ToUpper(cat[:3]), i)
			writeTestBullet(t, s, cat, id, fmt.Sprintf("note %d of %s", i, cat))
			want = append(want, id)
		}
	}
	slices.Sort(want)
	if ib := indexed(t, s); ib.Read != len(want) {
		t.Fatalf("first listing read %d files, want %d", ib.Read, len(want))
	}
	// The index as a run saves it, but with one entry of the strategy
	// folder cut short after its path and times (the checksum holds).
	time.Sleep(racyWindow) // the folders' times are trusted without a listing
	up := readBulletIndex(s, testAnalyser)
	damaged := mdstore.BulletPath(true, "strategy", "STR-017")
	i := slices.IndexFunc(up.entries, func(e string) bool { return entryRel(e) == damaged })
	if i < 0 {
		t.Fatalf("no entry for %s", damaged)
	}
	r := reader{b: up.entries[i]}
	r.bytes()
	r.varint()
	r.varint()
	r.varint()
	up.entries[i] = up.entries[i][:len(up.entries[i])-len(r.b)] + "\x05ab"
	if _, ok := up.decode(up.entries[i], filestat.Stat{}, false); ok {
		t.Fatal("the damaged entry still decodes")
	}
	up.dirty = true
	up.save(s)

	ib := indexed(t, s)
	if ib.Read != 1 {
		t.Fatalf("read %d files, want the one whose entry does not decode", ib.Read)
	}
	var got []string
	for _, sum := range ib.Active {
		got = append(got, sum.ID)
		n := strings.TrimLeft(sum.ID[4:], "0")
		if n == "" {
			n = "0"
		}
		if w := words(ib, sum); w != "note "+n+" of "+sum.Category {
			t.Fatalf("%s: words %q", sum.ID, w)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("active bullets %v\nwant %v", got, want)
	}
	if ib = indexed(t, s); ib.Read != 0 {
		t.Fatalf("the listing after read %d files; the entry was not written again", ib.Read)
	}
}

// A listing's memory follows its bullets, not its folders: 200 folders
// of two bullets each, all trusted, take about what 400 summaries take.
func TestBulletIndexMemoryFollowsBullets(t *testing.T) {
	s, _ := newStore(t)
	for c := range 200 {
		for i := range 2 {
			writeTestBullet(t, s, fmt.Sprintf("cat%03d", c), fmt.Sprintf("C%03d-%d", c, i), "a short note")
		}
	}
	indexed(t, s)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ib, err := Bullets(s, testAnalyser)
	runtime.ReadMemStats(&after)
	if err != nil || ib.Read != 0 || len(ib.Active) != 400 {
		t.Fatalf("listing: %v, read %d, %d active", err, ib.Read, len(ib.Active))
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("a listing of 400 bullets in 200 folders allocated %d MB", grew>>20)
	}
}
