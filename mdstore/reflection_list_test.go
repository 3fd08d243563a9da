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

// TestReflectionKeyGivenTwice: a JSON reflection that gives a key twice
// is refused with the key and its lines (JSON would keep the last).
func TestReflectionKeyGivenTwice(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`{"id": "r-1", "id": "r-2", "lessons": [{"content": "c", "category": "api", "confidence": 0.5}]}`, "id is given twice"},
		{"{\"id\": \"r-1\", \"lessons\": [{\"content\": \"c\",\n \"category\": \"api\", \"confidence\": 0.5,\n \"confidence\": 0.9}]}", "lessons[0].confidence is given twice (first on line 2)"},
		// escapes YAML does not read, elsewhere in the text
		{`{"id": "r-1", "lessons": [{"content": "see docs\/api \ud83d\ude80", "category": "api", "confidence": 0.5, "confidence": 0.9}]}`, "lessons[0].confidence is given twice (first on line 1)"},
	} {
		if _, err := ParseReflection("r.json", []byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.data, err, c.want)
		}
	}
	if _, err := ParseReflection("r.json", []byte(`{"id": "r-1", "lessons": [{"content": "c", "category": "api", "confidence": 0.5}, {"content": "d", "category": "api", "confidence": 0.6}]}`)); err != nil {
		t.Errorf("keys once each: %v", err)
	}
}
