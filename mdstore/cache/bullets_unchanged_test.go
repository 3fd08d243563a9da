package cache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// ageFolder sets a folder's times back past the racy window.
func ageFolder(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(dir, old, old); err != nil {
		t.Fatal(err)
	}
}

// A listing stays unchanged while its folders keep their times; a file
// added, a new category, a folder changed within the racy window or an
// unreadable file each make it changed.
func TestIndexedBulletsUnchanged(t *testing.T) {
	s, _ := newStore(t)
	writeTestBullet(t, s, "strategy", "STRAT-001", "check the page count")
	writeTestBullet(t, s, "api", "API-001", "log in first")
	strategy, api := s.Path("context/bullets/strategy"), s.Path("context/bullets/api")
	if ib := indexed(t, s); ib.Unchanged(s) {
		t.Error("a listing of folders changed just now is trusted")
	}
	ageFolder(t, strategy)
	ageFolder(t, api)
	ib := indexed(t, s)
	if !ib.Unchanged(s) {
		t.Fatal("nothing changed, yet the listing is not trusted")
	}
	writeTestBullet(t, s, "strategy", "STRAT-002", "read the docs")
	if ib.Unchanged(s) {
		t.Error("a bullet added: the listing is still trusted")
	}
	ageFolder(t, strategy)
	ib = indexed(t, s)
	if !ib.Unchanged(s) {
		t.Fatal("settled again, yet not trusted")
	}
	writeTestBullet(t, s, "verification", "VERIF-001", "run the tests")
	if ib.Unchanged(s) {
		t.Error("a new category: the listing is still trusted")
	}
	ageFolder(t, s.Path("context/bullets/verification"))
	if err := os.WriteFile(filepath.Join(api, "API-002.md"), []byte("---\nid: [unclosed\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ageFolder(t, api)
	ib = indexed(t, s)
	if len(ib.Invalid) != 1 || ib.Unchanged(s) {
		t.Errorf("an unreadable file (invalid %v): the listing is trusted, so it would not be reported again", ib.Invalid)
	}
}
