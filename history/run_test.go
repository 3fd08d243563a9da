package history

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestParseMessage(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want Run
	}{
		{"memory curate 2026-11-29T09:00:00Z to 2026-11-29T10:00:00Z: 1 promoted, 2 duplicates, 3 discarded, 0 kept\n\npromote f-1 (channel A)\ntrash f-2: duplicate of f-3\n\nCurator-Run: R1\nCurator-Command: curator memory curate\n",
			Run{Summary: "memory curate 2026-11-29T09:00:00Z to 2026-11-29T10:00:00Z: 1 promoted, 2 duplicates, 3 discarded, 0 kept", RunID: "R1",
				Command: "curator memory curate", Kind: "memory", Counts: map[string]int{"promoted": 1, "duplicates": 2, "discarded": 3, "kept": 0}, Decisions: 2}},
		{"pipeline shop: spec-writer → implementer\n\nvalidated spec-writer (1 artifact(s))\n\nCurator-Run: R2\nCurator-Command: curator pipeline transition\n",
			Run{Summary: "pipeline shop: spec-writer → implementer", RunID: "R2", Command: "curator pipeline transition", Kind: "pipeline", Decisions: 1}},
		{"curator init\nCurator-Run: R3\nCurator-Command: curator init\n", Run{Summary: "curator init", RunID: "R3", Command: "curator init", Kind: "init"}},
		{"context curate: 2 new, 0 reinforced\r\n\r\nCurator-Run: R4\r\n", Run{Summary: "context curate: 2 new, 0 reinforced", RunID: "R4", Kind: "context",
			Counts: map[string]int{"new": 2, "reinforced": 0}}},
		{"fix a typo by hand\n\nin STRAT-001\n", Run{Summary: "fix a typo by hand"}},
	} {
		got := ParseMessage(c.msg)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseMessage(%q)\n got %+v\nwant %+v", c.msg, got, c.want)
		}
	}
}

// TestLog reads runs from a real git history with a hand commit and a
// merge, along first parents.
func TestLog(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if runs, err := Log(dir, Query{}); err == nil || runs != nil {
		// not a repository yet
		t.Fatalf("no repository: %v %v", runs, err)
	}
	git("init", "-q", "-b", "main")
	if runs, err := Log(dir, Query{}); err != nil || len(runs) != 0 {
		t.Fatalf("empty repository: %v %v", runs, err)
	}
	commit := func(msg, date string) {
		t.Helper()
		os.WriteFile(filepath.Join(dir, "f"), []byte(msg), 0o644)
		git("add", "f")
		cmd := exec.Command("git", "commit", "-q", "-m", msg)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x",
			"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("commit: %v\n%s", err, out)
		}
	}
	commit("curator init\n\nCurator-Run: R1\nCurator-Command: curator init", "2026-11-01T10:00:00Z")
	commit("memory curate: 1 promoted\n\nCurator-Run: R2\nCurator-Command: curator memory curate", "2026-11-02T10:00:00Z")
	commit("a hand edit", "2026-11-03T10:00:00Z")
	commit("context curate: 2 new\n\nCurator-Run: R3\nCurator-Command: curator context curate", "2026-11-04T10:00:00Z")
	ids := func(runs []Run) []string {
		var out []string
		for _, r := range runs {
			out = append(out, r.RunID+"|"+r.Summary[:4])
		}
		return out
	}
	check := func(q Query, want ...string) {
		t.Helper()
		runs, err := Log(dir, q)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(runs); !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: got %v, want %v", q, got, want)
		}
	}
	check(Query{}, "R3|cont", "R2|memo", "R1|cura")
	check(Query{All: true}, "R3|cont", "|a ha", "R2|memo", "R1|cura")
	check(Query{Kind: "memory"}, "R2|memo")
	check(Query{Limit: 2}, "R3|cont", "R2|memo")
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	check(Query{Since: day(2)}, "R3|cont", "R2|memo")
	check(Query{Until: day(3)}, "R2|memo", "R1|cura")
	check(Query{Rev: "HEAD~2"}, "R2|memo", "R1|cura")
	if _, err := Log(dir, Query{Rev: "nope"}); err == nil {
		t.Error("an unknown revision is not an error")
	}
	runs, _ := Log(dir, Query{Limit: 1})
	if r := runs[0]; r.Time != time.Date(2026, 11, 4, 10, 0, 0, 0, time.UTC) || len(r.Commit) != 40 || r.Command != "curator context curate" {
		t.Errorf("run: %+v", r)
	}
}

// A sync run's kind has no colon, and a count of several words is one
// name joined by "_".
func TestParseMessageSyncAndLongCounts(t *testing.T) {
	r := ParseMessage("sync: merged origin/main: 2 promoted, 3 left for reflection\n\nCurator-Run: r1\n")
	if r.Kind != "sync" {
		t.Errorf("kind %q, want sync", r.Kind)
	}
	if r.Counts["promoted"] != 2 || r.Counts["left_for_reflection"] != 3 {
		t.Errorf("counts %v", r.Counts)
	}
}
