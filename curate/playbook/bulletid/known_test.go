package bulletid

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curator-dev/curator/mdstore"
)

// writeBullet writes a minimal bullet file into the store's work tree.
func writeBullet(t *testing.T, s *mdstore.Store, active bool, category, id string) {
	t.Helper()
	rel := mdstore.BulletPath(active, category, id)
	p := s.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\nid: " + id + "\ncategory: " + category + "\nconfidence: 0.7\n---\nBullet " + id + ".\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func commitAll(t *testing.T, dir, msg string) {
	t.Helper()
	gitCmd(t, dir, "add", "-A", ".curator")
	gitCmd(t, dir, "commit", "-qm", msg)
}

func nextIDs(t *testing.T, s *mdstore.Store) *Allocator {
	t.Helper()
	list, err := s.ListBullets(true)
	if err != nil {
		t.Fatal(err)
	}
	known, bad, err := Known(s, list)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 0 || len(list.Invalid) != 0 {
		t.Fatalf("unreadable files: %v %v", bad, list.Invalid)
	}
	return NewAllocator(nil, known...)
}

// An id used only on another branch (local or remote-tracking, active or
// archived, a version or a base id), only in the merge log, or only in a
// bullet's merged_from / parent_bullet_id is never handed out on this one.
func TestNextIDAboveEveryBranch(t *testing.T) {
	needGit(t)
	s, dir := newStore(t)
	writeBullet(t, s, true, "strategy", "STRAT-001")
	writeBullet(t, s, true, "strategy", "STRAT-002")
	writeBullet(t, s, true, "api", "API-001")
	commitAll(t, dir, "main bullets")
	gitCmd(t, dir, "branch", "-M", "main")

	// Branch "other": an active STRAT-050, an archived PATTERN-030 and a
	// version TRBL-020-v3 (its base never existed as a file anywhere).
	gitCmd(t, dir, "checkout", "-qb", "other")
	writeBullet(t, s, true, "strategy", "STRAT-050")
	writeBullet(t, s, false, "pattern", "PATTERN-030")
	writeBullet(t, s, true, "troubleshooting", "TRBL-020-v3")
	commitAll(t, dir, "other bullets")

	// A remote-tracking branch only (no local branch holds it): API-040,
	// in packed refs as after a fetch.
	gitCmd(t, dir, "checkout", "-qb", "feature", "main")
	writeBullet(t, s, true, "api", "API-040")
	commitAll(t, dir, "feature bullet")
	tip := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD"))
	gitCmd(t, dir, "checkout", "-q", "main")
	gitCmd(t, dir, "update-ref", "refs/remotes/origin/feature", tip)
	gitCmd(t, dir, "branch", "-qD", "feature")
	gitCmd(t, dir, "pack-refs", "--all")

	// On main: an id only in the merge log, and ids only named by a merged
	// bullet's merged_from / parent_bullet_id.
	logRel := "context/log/2026/01/run-old.jsonl"
	if err := os.MkdirAll(filepath.Dir(s.Path(logRel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(logRel), mdstore.EncodeMergeLog([]mdstore.MergeLogLine{{RunID: "run-old", MergeType: "new_bullet", BulletID: "VERIF-012"}}), 0o644); err != nil {
		t.Fatal(err)
	}
	merged := s.Path(mdstore.BulletPath(true, "anti-pattern", "ANTI-003-v2"))
	os.MkdirAll(filepath.Dir(merged), 0o755)
	os.WriteFile(merged, []byte("---\nid: ANTI-003-v2\ncategory: anti-pattern\nversion: 2\nparent_bullet_id: ANTI-003\nmerged_from: [ANTI-003, ANTI-009]\n---\nMerged.\n"), 0o644)

	for _, rel := range []string{mdstore.BulletPath(true, "strategy", "STRAT-050"), mdstore.BulletPath(false, "pattern", "PATTERN-030"),
		mdstore.BulletPath(true, "api", "API-040"), mdstore.BulletPath(true, "troubleshooting", "TRBL-020-v3")} {
		if _, err := os.Stat(s.Path(rel)); err == nil {
			t.Fatalf("%s should not be in main's work tree", rel)
		}
	}

	a := nextIDs(t, s)
	for cat, want := range map[string]string{
		"strategy":        "STRAT-051",   // local branch "other"
		"pattern":         "PATTERN-031", // archived on "other"
		"troubleshooting": "TRBL-021",    // a version on "other"
		"api":             "API-041",     // remote-tracking branch only
		"verification":    "VERIF-013",   // merge log only
		"anti-pattern":    "ANTI-010",    // merged_from only
		"other":           "MISC-001",
	} {
		if got := a.Next(cat); got != want {
			t.Errorf("next %s id = %s, want %s", cat, got, want)
		}
	}
	if got := a.NextVersion("TRBL-020"); got != "TRBL-020-v4" {
		t.Errorf("next version of TRBL-020 = %s, want TRBL-020-v4", got)
	}

	// Deleting the branches does not free ids that the merge log or files
	// still name; a store outside git still works from its files.
	gitCmd(t, dir, "branch", "-qD", "other")
	gitCmd(t, dir, "update-ref", "-d", "refs/remotes/origin/feature")
	if got := nextIDs(t, s).Next("strategy"); got != "STRAT-003" {
		t.Errorf("after deleting branch other: next strategy = %s, want STRAT-003", got)
	}
}

// A store outside any git repository allocates from its files and log.
func TestNextIDWithoutGit(t *testing.T) {
	dir := t.TempDir()
	s, _, err := mdstore.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, ".git"))
	writeBullet(t, s, false, "strategy", "STRAT-007")
	if got := nextIDs(t, s).Next("strategy"); got != "STRAT-008" {
		t.Errorf("next strategy = %s, want STRAT-008", got)
	}
}

// The parser of ids answers as the regular expression it stands for.
func TestSplitBulletIDMatchesRegexp(t *testing.T) {
	ids := []string{"STRAT-001", "STRAT-001-v2", "A-1-2", "A-1-v2", "A-v2", "-1", "A-", "A-1-v", "X--1", "A-v-1", "A-1-v2-v3",
		"A-01-v002", "API-1234567", "a-b-c-9", "STRAT-001-v", "v-1", "A-1v2", "A--v2", "A-1--v2", "", "-", "--1", "A-\n1", "MISC-12-v10"}
	for _, id := range ids {
		want := idRE.FindStringSubmatch(id)
		m, ok := split(id)
		var got []string
		if ok {
			got = m[:]
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: got %q, want %q", id, got, want)
		}
	}
	for _, n := range []int{0, 7, 42, 123, 1234} {
		if got, want := pad3(n), fmt.Sprintf("%03d", n); got != want {
			t.Errorf("pad3(%d) = %q, want %q", n, got, want)
		}
	}
}

// The allocator looks at the ids of one number only when asked about it;
// the answers equal those of an allocator that recorded every id at once.
func TestAllocatorLooksAtOneNumberAsAtAll(t *testing.T) {
	var seen []string
	for i := 1; i <= 300; i++ {
		switch i % 5 {
		case 0:
			seen = append(seen, fmt.Sprintf("STRAT-%d", i)) // other padding
		case 1:
			seen = append(seen, fmt.Sprintf("STRAT-%03d-v%d", i, i%4+2))
		case 2:
			seen = append(seen, fmt.Sprintf("API-%03d", i), fmt.Sprintf("API-%03d-v3", i))
		default:
			seen = append(seen, fmt.Sprintf("STRAT-%03d", i))
		}
	}
	seen = append(seen, "not-an-id", "STRAT-7-v5")
	lazy := NewAllocator(nil, seen...)
	all := NewAllocator(nil, seen...)
	for i := range lookAllAfter + 1 {
		all.Used(fmt.Sprintf("MISC-%03d", 900+i))
	}
	if !all.all || lazy.all {
		t.Fatal("the allocators must take both paths")
	}
	for _, q := range []string{"STRAT-005", "STRAT-5", "STRAT-0005", "STRAT-006-v3", "STRAT-006-v2", "API-002-v3", "API-007-v2", "not-an-id", "other", "STRAT-007-v5", "STRAT-301"} {
		if lazy.Used(q) != all.Used(q) {
			t.Errorf("Used(%s): %v, all at once %v", q, lazy.Used(q), all.Used(q))
		}
	}
	for _, id := range []string{"STRAT-006", "STRAT-7", "STRAT-010", "API-002", "STRAT-004"} {
		if l, a := lazy.NextVersion(id), all.NextVersion(id); l != a {
			t.Errorf("NextVersion(%s): %s, all at once %s", id, l, a)
		}
	}
	for _, c := range []string{"strategy", "api", "other"} {
		if l, a := lazy.Next(c), all.Next(c); l != a {
			t.Errorf("Next(%s): %s, all at once %s", c, l, a)
		}
	}
	// An id observed later counts for a number already looked at.
	lazy.Observe("STRAT-006-v9")
	all.Observe("STRAT-006-v9")
	if l, a := lazy.NextVersion("STRAT-006"), all.NextVersion("STRAT-006"); l != a || l != "STRAT-006-v10" {
		t.Errorf("after a later id: %s, all at once %s", l, a)
	}
}
