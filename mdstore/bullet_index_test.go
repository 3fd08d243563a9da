package mdstore

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// testAnalyser stands for the engine's analysis: the words of the text.
var testAnalyser = Analyser{Version: "test 1", Words: strings.Fields}

func writeTestBullet(t *testing.T, s *Store, cat, id, body string) string {
	t.Helper()
	rel := BulletPath(true, cat, id)
	if err := os.MkdirAll(filepath.Dir(s.Path(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "---\nid: " + id + "\ncategory: " + cat + "\nconfidence: 0.6\nhelpful_count: 2\n---\n\n" + body + "\n"
	if err := os.WriteFile(s.Path(rel), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return rel
}

func indexed(t *testing.T, s *Store) *IndexedBullets {
	t.Helper()
	ib, err := s.IndexedBullets(testAnalyser)
	if err != nil {
		t.Fatal(err)
	}
	s.WriteCaches()
	return ib
}

func words(ib *IndexedBullets, b *BulletSummary) string {
	var out []string
	for _, t := range b.Terms {
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
	if b := ib.Active[0]; b.HelpfulCount != 2 || b.Confidence != 0.6 || b.Category != "api" || b.Content != "" || b.ContentLen != len("log in first") {
		t.Fatalf("summary %+v", b)
	}
	ib = indexed(t, s)
	if ib.Read != 0 || len(ib.Active) != 2 {
		t.Fatalf("second listing read %d files", ib.Read)
	}

	// A save: the files it writes are taken in when the caches are written,
	// so the next listing reads nothing.
	ib, _ = s.IndexedBullets(testAnalyser)
	cs := &Changeset{}
	b, err := s.ReadBullet(ib.Active[1].Path)
	if err != nil {
		t.Fatal(err)
	}
	b.HelpfulCount = 7
	data, _ := b.Encode()
	cs.Write(b.Path, data)
	cs.Move(BulletPath(true, "api", "API-001"), BulletPath(false, "api", "API-001"), []byte("---\nid: API-001\ncategory: api\n---\n\nlog in first\n"))
	if _, err := s.Save(cs, info("r1"), SaveOptions{NoCommit: true}); err != nil {
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
	// Another analysis: rebuilt too.
	other := testAnalyser
	other.Version = "test 2"
	other.Words = func(s string) []string { return strings.Fields(strings.ToUpper(s)) }
	ib2, err := s.IndexedBullets(other)
	if err != nil || ib2.Read != 2 || ib2.Words[ib2.Active[0].Terms[0]] != "CHECK" {
		t.Fatalf("other analysis: %v %+v", err, ib2)
	}
}

// A hand edit that keeps the size and sets the modification time back is
// still seen (by the change time, which cannot be set back); only where the
// system has no change time is it missed.
func TestBulletIndexSeesHandEditWithTimeRestored(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no change time: a documented limitation")
	}
	s, _ := newStore(t)
	rel := writeTestBullet(t, s, "strategy", "STRAT-001", "check the page count")
	indexed(t, s)
	fi, err := os.Stat(s.Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // let the change time move on coarse clocks
	data, _ := os.ReadFile(s.Path(rel))
	edited := strings.Replace(string(data), "page count", "page total", 1)
	if len(edited) != len(data) {
		t.Fatal("the edit must keep the size")
	}
	if err := os.WriteFile(s.Path(rel), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(s.Path(rel), fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	ib := indexed(t, s)
	if ib.Read != 1 || words(ib, ib.Active[0]) != "check the page total" {
		t.Fatalf("hand edit missed: read %d, words %q", ib.Read, words(ib, ib.Active[0]))
	}
}
