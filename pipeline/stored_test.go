package pipeline

import (
	"path/filepath"
	"testing"
)

func TestStoredPathsAreRelativeToTheRepository(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	home := filepath.Join(filepath.Dir(root), "me")
	e := &Env{Root: root, UserHome: home}
	for _, tc := range []struct{ abs, stored string }{
		{filepath.Join(root, "src", "shop"), "src/shop"},
		{root, "."},
		{filepath.Join(home, "shop"), "~/shop"},
		{filepath.Join(filepath.Dir(root), "elsewhere"), filepath.Join(filepath.Dir(root), "elsewhere")},
	} {
		if got := e.Stored(tc.abs); got != tc.stored {
			t.Errorf("Stored(%s) = %q, want %q", tc.abs, got, tc.stored)
		}
		back, err := e.storedPath(e.Stored(tc.abs))
		if err != nil || back != tc.abs {
			t.Errorf("read back %q: %q, %v; want %s", e.Stored(tc.abs), back, err, tc.abs)
		}
	}
	// outside a repository the brief and dashboard show paths as they are
	plain := &Env{UserHome: home}
	if p := filepath.Join(home, "shop"); plain.Shown(p) != p {
		t.Errorf("Shown without a repository: %q", plain.Shown(p))
	}
}

func TestBriefThatDiffersOnlyByItsTimeIsNotWritten(t *testing.T) {
	a := []byte("# Context Brief\n**Generated**: 2026-11-30T14:00:00Z\nbody\n")
	b := []byte("# Context Brief\n**Generated**: 2026-11-30T15:00:00Z\nbody\n")
	c := []byte("# Context Brief\n**Generated**: 2026-11-30T15:00:00Z\nother body\n")
	if !sameBrief(a, b) || sameBrief(a, c) || sameBrief([]byte("x"), []byte("x ")) {
		t.Fatal("sameBrief")
	}
	if !IsBackup(BackupName("shop", 3)) || IsBackup(StateName("shop")) {
		t.Fatal("IsBackup")
	}
}
