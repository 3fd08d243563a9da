package history

import (
	"os"
	"path/filepath"
	"testing"
)

// TestChangedSymlink: a record file that is a committed symlink is, as git
// keeps it, the path it holds; unchanged, the work tree shows nothing, and
// pointed elsewhere it is one change.
func TestChangedSymlink(t *testing.T) {
	r := newGitRepo(t, ".curator")
	r.write("memory/confirmed/fact/f-1.md", memory("f-1", "confirmed", "first", ""))
	r.write("memory/confirmed/fact/f-2.md", memory("f-2", "confirmed", "second", ""))
	link := filepath.Join(r.store, "memory/inbox/x.md")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../confirmed/fact/f-1.md", link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	r.commit("records and a link", "")
	for _, spec := range []string{"", "HEAD"} {
		files, err := Changed(r.store, spec)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 0 {
			t.Errorf("diff %q of a clean tree: %d changes, first %s %q → %q", spec, len(files), files[0].Path, files[0].Old, files[0].New)
		}
	}

	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../confirmed/fact/f-2.md", link); err != nil {
		t.Fatal(err)
	}
	files, err := Changed(r.store, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "memory/inbox/x.md" || string(files[0].Old) != "../confirmed/fact/f-1.md" || string(files[0].New) != "../confirmed/fact/f-2.md" {
		t.Errorf("a link pointed elsewhere: %+v, want memory/inbox/x.md from f-1.md to f-2.md", files)
	}
}
