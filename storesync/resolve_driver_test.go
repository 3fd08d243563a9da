package storesync_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/storesync"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil && args[0] != "merge" {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// Resolve says when git could not run the merge driver the repository
// registers, so that the store's files of the merge were left whole.
func TestResolveNamesMissingDriver(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	s, _, err := mdstore.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	git(t, dir, "config", "merge.curator.driver", "no-such-curator-xyz merge-driver %O %A %B %P")
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte(".curator/** merge=curator\n"), 0o644)
	bullet := func(helpful string) []byte {
		return []byte("---\nid: STRAT-001\ncategory: strategy\nhelpful_count: " + helpful + "\nharmful_count: 0\nusage_count: 1\n" +
			"created_at: \"2026-11-01T10:00:00Z\"\nupdated_at: \"2026-11-01T10:00:00Z\"\nis_active: true\nvalidation: pending\n---\nPage through results.\n")
	}
	p := filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, bullet("1"), 0o644)
	git(t, dir, "add", "-A", ".")
	git(t, dir, "commit", "-q", "-m", "base")
	git(t, dir, "checkout", "-q", "-b", "other")
	os.WriteFile(p, bullet("3"), 0o644)
	git(t, dir, "commit", "-q", "-am", "other")
	git(t, dir, "checkout", "-q", "main")
	os.WriteFile(p, bullet("2"), 0o644)
	git(t, dir, "commit", "-q", "-am", "main")
	git(t, dir, "merge", "-q", "--no-edit", "other") // fails: git cannot run the driver

	rep, err := storesync.Resolve(s, storesync.ResolveRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.DriverMissing != "no-such-curator-xyz" {
		t.Errorf("driver missing %q, want no-such-curator-xyz", rep.DriverMissing)
	}
	if data, _ := os.ReadFile(p); !strings.Contains(string(data), "helpful_count: 4") {
		t.Errorf("the bullet was not merged by record:\n%s", data)
	}
}
