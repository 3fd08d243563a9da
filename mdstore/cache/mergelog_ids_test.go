package cache

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/curator-dev/curator/mdstore"
)

// The merge logs' ids come from the cache for logs that did not change,
// equal the ids of every line read (ReadMergeLogs), follow a log that
// changes, and a log with an unreadable line is reported on every run.
func TestMergeLogIDsFollowLogs(t *testing.T) {
	s, _ := newStore(t)
	write := func(rel string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(s.Path(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.Path(rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("context/log/2026/01/run-1.jsonl", mdstore.EncodeMergeLog([]mdstore.MergeLogLine{
		{RunID: "run-1", MergeType: "new_bullet", BulletID: "STRAT-001"},
		{RunID: "run-1", MergeType: "merge_similar", BulletID: "STRAT-002-v2", TargetBulletID: "STRAT-002", MergedFromBulletIDs: []string{"STRAT-002", "STRAT-009"}},
	}))
	write("context/log/2026/02/run-2.jsonl", mdstore.EncodeMergeLog([]mdstore.MergeLogLine{{RunID: "run-2", MergeType: "new_bullet", BulletID: "API-004"}}))
	want := func() []string {
		t.Helper()
		lines, _, err := s.ReadMergeLogs()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range lines {
			for _, id := range l.IDs() {
				if id != "" {
					out = append(out, id)
				}
			}
		}
		return out
	}
	check := func(step string, wantBad int) {
		t.Helper()
		got, bad, err := MergeLogIDs(s)
		if err != nil {
			t.Fatal(err)
		}
		s.WriteCaches()
		if !slices.Equal(got, want()) {
			t.Errorf("%s: ids %v, want %v", step, got, want())
		}
		if len(bad) != wantBad {
			t.Errorf("%s: %d unreadable lines reported, want %d: %v", step, len(bad), wantBad, bad)
		}
	}
	check("first run", 0)
	cached, err := os.ReadFile(filepath.Join(s.Dir, mergeLogIDsPath))
	if err != nil || !strings.Contains(string(cached), "STRAT-009") {
		t.Fatalf("cache %q %v", cached, err)
	}
	check("from the cache", 0)

	// The process that asked keeps what it learnt: a cache file another
	// process changed is not read for the logs it has seen as they are.
	os.WriteFile(filepath.Join(s.Dir, mergeLogIDsPath), []byte(strings.ReplaceAll(string(cached), "API-004", "API-777")), 0o644)
	check("from what the process learnt", 0)
	// A cache file gone is written again, though nothing was read.
	os.Remove(filepath.Join(s.Dir, mergeLogIDsPath))
	check("the cache file gone", 0)
	if again, err := os.ReadFile(filepath.Join(s.Dir, mergeLogIDsPath)); err != nil || string(again) != string(cached) {
		t.Fatalf("cache written again as %q (%v), want %q", again, err, cached)
	}

	// The cache is what a new process uses: a cache naming other ids for
	// an unchanged log is believed (so the cache, not the log, was read).
	forgetMergeLogs(s.Dir)
	os.WriteFile(filepath.Join(s.Dir, mergeLogIDsPath), []byte(strings.ReplaceAll(string(cached), "API-004", "API-777")), 0o644)
	if got, _, _ := MergeLogIDs(s); !slices.Contains(got, "API-777") {
		t.Fatalf("the cache was not used: %v", got)
	}
	forgetMergeLogs(s.Dir)
	os.Remove(filepath.Join(s.Dir, mergeLogIDsPath))
	s.WriteCaches()

	// A log that grows, and one with a line that cannot be read.
	write("context/log/2026/02/run-2.jsonl", mdstore.EncodeMergeLog([]mdstore.MergeLogLine{{RunID: "run-2", MergeType: "new_bullet", BulletID: "API-004"},
		{RunID: "run-2", MergeType: "new_bullet", BulletID: "API-005"}}))
	write("context/log/2026/03/run-3.jsonl", append(mdstore.EncodeMergeLog([]mdstore.MergeLogLine{{RunID: "run-3", MergeType: "new_bullet", BulletID: "VERIF-001"}}), "{not json\n"...))
	check("after a log grew and a damaged one came", 1)
	check("again", 1)
}

// forgetMergeLogs drops what this process learnt of a store's merge logs,
// as a new process starts.
func forgetMergeLogs(dir string) {
	mergeLogsSeen.Lock()
	defer mergeLogsSeen.Unlock()
	delete(mergeLogsSeen.byDir, dir)
}

// A merge-log folder that is a link to a folder, or a file, holds no logs
// (as git keeps it: the link is not followed), and is no error.
func TestMergeLogsOnlyInTheFolder(t *testing.T) {
	for _, kind := range []string{"link", "file"} {
		s, _ := newStore(t)
		other := s.Path("context/elsewhere/2026/01")
		if err := os.MkdirAll(other, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(other, "run-1.jsonl"), mdstore.EncodeMergeLog([]mdstore.MergeLogLine{{RunID: "run-1", MergeType: "new_bullet", BulletID: "API-001"}}), 0o644)
		os.RemoveAll(s.Path("context/log"))
		if kind == "link" {
			if err := os.Symlink(s.Path("context/elsewhere"), s.Path("context/log")); err != nil {
				t.Fatal(err)
			}
		} else {
			os.WriteFile(s.Path("context/log"), []byte("x"), 0o644)
		}
		ids, bad, err := MergeLogIDs(s)
		if err != nil || len(ids) != 0 || len(bad) != 0 {
			t.Errorf("%s: ids %v, unreadable %v, error %v; want none", kind, ids, bad, err)
		}
	}
}

// A log removed is dropped from the cache file, though every log left
// was known to the process.
func TestMergeLogRemovedLeavesTheCache(t *testing.T) {
	s, _ := newStore(t)
	dir := s.Path("context/log/2026/01")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{"run-1", "run-2"} {
		os.WriteFile(filepath.Join(dir, run+".jsonl"), mdstore.EncodeMergeLog([]mdstore.MergeLogLine{{RunID: run, MergeType: "new_bullet", BulletID: "API-" + run}}), 0o644)
	}
	for _, step := range []string{"both", "one removed"} {
		if step == "one removed" {
			os.Remove(filepath.Join(dir, "run-2.jsonl"))
		}
		if _, _, err := MergeLogIDs(s); err != nil {
			t.Fatal(err)
		}
		s.WriteCaches()
	}
	cached, err := os.ReadFile(filepath.Join(s.Dir, mergeLogIDsPath))
	if err != nil || strings.Contains(string(cached), "run-2") || !strings.Contains(string(cached), "run-1") {
		t.Fatalf("cache %q (%v): want run-1's log only", cached, err)
	}
}
