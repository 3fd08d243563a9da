package history

import (
	"os"
	"path/filepath"
	"testing"
)

// A bare repository has a HEAD file and an objects folder; a work tree's
// folder (its .git inside) is not one.
func TestIsBareRepo(t *testing.T) {
	bare := t.TempDir()
	os.WriteFile(filepath.Join(bare, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.Mkdir(filepath.Join(bare, "objects"), 0o755)
	work := t.TempDir()
	os.MkdirAll(filepath.Join(work, ".git", "objects"), 0o755)
	os.WriteFile(filepath.Join(work, "objects"), nil, 0o644) // a file, not the folder
	if !IsBareRepo(bare) || IsBareRepo(work) {
		t.Errorf("bare %v, work tree %v; want true, false", IsBareRepo(bare), IsBareRepo(work))
	}
}
