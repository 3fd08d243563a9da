package playbook

import (
	"strings"
	"testing"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// The procedure's merge log: an increment names the bullet it changed as
// bullet_id (and target_bullet_id); a merge carries the score that decided
// it; the commit body lists every bullet a merge combined.
func TestMergeLogLines(t *testing.T) {
	inc := Action{Type: ActIncrementHelpful, TargetBulletID: "STRAT-001", Similarity: 0.92, ReflectionID: "refl-1"}
	if l := inc.LogLine("run", now); l.BulletID != "STRAT-001" || l.TargetBulletID != "STRAT-001" || l.SimilarityScore != 0.92 {
		t.Errorf("increment log line %+v", l)
	}
	harm := Action{Type: ActIncrementHarmful, TargetBulletID: "ANTI-003"}
	if l := harm.LogLine("run", now); l.BulletID != "ANTI-003" {
		t.Errorf("increment_harmful log line %+v", l)
	}
	arch := Action{Type: ActArchive, TargetBulletID: "ANTI-003"}
	if l := arch.LogLine("run", now); l.BulletID != "" {
		t.Errorf("archive log line names bullet_id %q", l.BulletID)
	}
	merge := Action{Type: ActMergeSimilar, BulletID: "STRAT-001-v2", TargetBulletID: "STRAT-001", MergedFrom: []string{"STRAT-001", "STRAT-004", "STRAT-009"}}
	got := Decisions([]Action{merge})[0]
	if !strings.Contains(got, "STRAT-001 + STRAT-004 + STRAT-009") {
		t.Errorf("commit line %q does not list every merged bullet", got)
	}
}

func TestMaintenanceMergeScore(t *testing.T) {
	a, b, c := "Use the maximum page size.", "Always use the maximum page size.", "Always use the largest page size."
	d, e := "Retry a failed request once.", "Retry a failed request once after a pause."
	eng := stubEngine{{a, b}: 0.95, {b, c}: 0.93, {a, c}: 0.70, {d, e}: 0.87}
	pb := New([]*mdstore.Bullet{
		bullet("STRAT-001", "strategy", a, 3, 0, 0.8), bullet("STRAT-002", "strategy", b, 0, 0, 0.8),
		bullet("STRAT-003", "strategy", c, 0, 0, 0.8), bullet("TRBL-001", "troubleshooting", d, 0, 0, 0.8),
		bullet("TRBL-002", "troubleshooting", e, 0, 0, 0.8),
	}, bulletid.NewAllocator(nil), func() Matcher { return similar.NewIndex(eng) }, now)
	rep, err := PlanMaintenance(pb, Settings{Threshold: 0.85, AutoMerge: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		// a~b 0.95 and b~c 0.93 join the group; the weaker a~c (0.70) did not decide it
		"STRAT-001": 0.93,
		// an overlapping pair merged with --auto-merge: its own score
		"TRBL-001": 0.87,
	}
	n := 0
	for _, act := range rep.Actions {
		if act.Type != ActMergeSimilar {
			continue
		}
		n++
		if w, ok := want[act.TargetBulletID]; !ok || act.Similarity != w {
			t.Errorf("merge of %v: similarity %v, want %v", act.MergedFrom, act.Similarity, w)
		}
	}
	if n != 2 {
		t.Errorf("%d merges, want 2", n)
	}
}
