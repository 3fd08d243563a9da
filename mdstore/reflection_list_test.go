package mdstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReflectionsThatLookLikeOneAreNamed: a folder named like a reflection
// file, and a file whose extension is upper case, are named as invalid,
// not passed over; hidden files and other names are not reflections.
func TestReflectionsThatLookLikeOneAreNamed(t *testing.T) {
	s, _ := newStore(t)
	dir := s.Path("context/reflections/pending")
	os.MkdirAll(filepath.Join(dir, "refl-dir.md"), 0o755)
	os.WriteFile(filepath.Join(dir, "x.JSON"), []byte(`{"id": "x", "lessons": [{"content": "c", "category": "api", "confidence": 0.5}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden.md"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	list, err := s.ListReflections("pending")
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, inv := range list.Invalid {
		named = append(named, inv.Path)
	}
	if strings.Join(named, " ") != "context/reflections/pending/refl-dir.md context/reflections/pending/x.JSON" {
		t.Errorf("named %v, want the folder and x.JSON", named)
	}
}
