package storehealth

import (
	"reflect"
	"testing"
	"time"

	"github.com/curator-dev/curator/history"
)

func TestSummariseReadsCountsChannelsAndWarnings(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	metrics := func(rel string) ([]byte, error) {
		if rel != "context/metrics/2026/11/20261129T100000Z-abc123.json" {
			t.Errorf("metrics read from %s", rel)
		}
		return []byte(`{"after": {"by_category": {"strategy": 3}}, "invalid_files": 2}`), nil
	}
	for _, tc := range []struct {
		name, msg string
		want      Run
	}{
		{"memory pass", "memory curate 2026-11-29T09:00:00Z to 2026-11-29T10:00:00Z: 2 promoted, 1 duplicates, 1 discarded, 0 kept, 3 left for reflection, 1 late\n\n" +
			"trash m-1: duplicate of m-2\npromote m-2 to confirmed/fact (channel A, score 0.88)\npromote m-3 to confirmed/concept (channel C, score 0.51)\n\n" +
			"Curator-Run: 20261129T100000Z-abc123\nCurator-Command: curator memory curate\n",
			Run{Kind: "memory", Counts: map[string]int{"promoted": 2, "duplicates": 1, "discarded": 1, "kept": 0, "left_for_reflection": 3, "late": 1, "promoted_a": 1, "promoted_c": 1},
				Promoted: map[string]int{"fact": 1, "concept": 1}}},
		{"memory add", "memory add m-1\n\nadd m-1: brief\n\nCurator-Run: 20261129T100000Z-abc123\nCurator-Command: curator memory add\n",
			Run{Kind: "memory", Counts: map[string]int{"ingested": 1}}},
		{"playbook curation", "context curate: 1 new, 2 reinforced, 0 merged, 0 proposed, 1 archived\n\nnew_bullet STRAT-001 (reflection r lesson 1)\n\n" +
			"Curator-Run: 20261129T100000Z-abc123\nCurator-Command: curator context curate\n",
			Run{Kind: "context", Counts: map[string]int{"new": 1, "reinforced": 2, "merged": 0, "proposed": 0, "archived": 1, "invalid": 2},
				Active: map[string]int{"strategy": 3}}},
		{"sync with conflicts", "sync: merge origin/main (3 from theirs, 1 merged from both sides, 0 renumbered)\n\nconflict a.md: x\nconflict b.md: y\n\n" +
			"Curator-Run: 20261129T100000Z-abc123\nCurator-Command: curator sync\n",
			Run{Kind: "sync", Counts: map[string]int{"conflicts": 2, "merged_from_both_sides": 1}}},
	} {
		got, ok := summarise(history.Commit{Hash: "c1", Time: at, Message: tc.msg}, metrics)
		if !ok {
			t.Fatalf("%s: not a run", tc.name)
		}
		if got.Kind != tc.want.Kind || !reflect.DeepEqual(got.Counts, tc.want.Counts) || !reflect.DeepEqual(got.Promoted, tc.want.Promoted) || !reflect.DeepEqual(got.Active, tc.want.Active) {
			t.Errorf("%s: got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
	if _, ok := summarise(history.Commit{Message: "a hand edit\n"}, metrics); ok {
		t.Error("a commit without the Curator-Run trailer read as a run")
	}
}

func TestOutliersRule(t *testing.T) {
	run := func(kind string, trashed int) Run {
		return Run{Kind: kind, Counts: map[string]int{Duplicates: trashed}}
	}
	var runs []Run
	for i := 0; i < 6; i++ {
		runs = append(runs, run("memory", 2))
	}
	runs = append(runs,
		run("memory", 20),  // 10 × the usual 2: marked
		run("memory", 19),  // under 10 × 2: not marked
		run("context", 50), // first of its kind: nothing to compare with
	)
	marks := outliers(runs)
	for i, m := range marks {
		want := i == 6
		if (len(m) > 0) != want {
			t.Errorf("run %d (%+v): outliers %+v, want marked %v", i, runs[i], m, want)
		}
	}
	if got := marks[6]; len(got) != 1 || got[0] != (Outlier{Count: Trashed, Value: 20, Usual: 2}) {
		t.Errorf("outlier %+v", got)
	}
	// from 0 a count must reach the factor itself
	quiet := []Run{run("memory", 0), run("memory", 0), run("memory", 0), run("memory", 0), run("memory", 0), run("memory", 9), run("memory", 10)}
	if m := outliers(quiet); len(m[5]) > 0 || len(m[6]) != 1 {
		t.Errorf("from zero: %+v", m)
	}
}

func TestSeriesSteps(t *testing.T) {
	base := time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC) // a Monday
	mk := func(n int, every time.Duration) []Run {
		var out []Run
		for i := 0; i < n; i++ {
			r := Run{Kind: "memory", Time: base.Add(time.Duration(i) * every), Counts: map[string]int{Ingested: 1}}
			if i == 1 {
				r.Kind, r.Active = "context", map[string]int{"strategy": 4}
			}
			out = append(out, r)
		}
		return out
	}
	if s := stepOf(mk(60, time.Hour)); s != PerRun {
		t.Errorf("60 runs: %s", s)
	}
	day := mk(61, 6*time.Hour)
	if s := stepOf(day); s != PerDay {
		t.Errorf("61 runs over 15 days: %s", s)
	}
	pts := seriesOf(day, PerDay, nil)
	if len(pts) != 16 || pts[0].Runs != 3 || pts[0].Counts[Ingested] != 3 || pts[1].Runs != 4 {
		t.Errorf("per day: %d points, first %+v, second %+v", len(pts), pts[0], pts[1])
	}
	if pts[0].Active["strategy"] != 4 || pts[15].Active["strategy"] != 4 {
		t.Errorf("active carried forward: %+v … %+v", pts[0].Active, pts[15].Active)
	}
	// a first run whose clock was ahead does not turn a long range into days
	late := append([]Run{{Kind: "init", Time: base.Add(500 * 24 * time.Hour)}}, mk(400, time.Hour)...)
	if s := stepOf(late); s != PerWeek {
		t.Errorf("a range of 500 days whose first run is the latest: %s", s)
	}
	if pts := seriesOf(late, PerWeek, nil); !pts[0].Start.Before(pts[len(pts)-1].Start) {
		t.Errorf("weeks out of order: %v … %v", pts[0].Start, pts[len(pts)-1].Start)
	}
	week := mk(400, 24*time.Hour)
	if s := stepOf(week); s != PerWeek {
		t.Errorf("400 days: %s", s)
	}
	wp := seriesOf(week, PerWeek, nil)
	if wp[0].Start != time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC) || wp[0].Runs != 7 {
		t.Errorf("first week %+v", wp[0])
	}
}

func TestBins(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 1, 2: 2, 3: 3, 4: 3, 5: 4, 9: 4, 10: 5, 19: 5, 20: 6, 1000: 6} {
		if got := bin(n); got != want {
			t.Errorf("bin(%d) = %d, want %d", n, got, want)
		}
	}
}
