package playbook

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// A reflection without an id gets refl-<UTC time>, then -2, -3 while those
// are stored, pending or merged.
func TestFreshID(t *testing.T) {
	s, _, err := mdstore.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 19, 3, 45, 0, time.FixedZone("CET", 3600))
	var r mdstore.Reflection
	FreshID(s, &r, at)
	if r.ID != "refl-20261201-180345" {
		t.Fatalf("first id %q", r.ID)
	}
	for _, stored := range []struct{ state, id string }{{"pending", "refl-20261201-180345"}, {"merged", "refl-20261201-180345-2"}} {
		p := s.Path(mdstore.ReflectionPath(stored.state, stored.id, false))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("---\nid: "+stored.id+"\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	FreshID(s, &r, at)
	if r.ID != "refl-20261201-180345-3" {
		t.Fatalf("with the first two stored: %q", r.ID)
	}
}
