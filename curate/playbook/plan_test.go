package playbook

import (
	"slices"
	"testing"
	"time"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// stubEngine scores a lesson against a bullet from a table keyed by the two
// texts; unknown pairs score 0, identical texts 1.
type stubEngine map[[2]string]float64

func (stubEngine) Name() string { return "stub" }
func (e stubEngine) Score(a, b string) float64 {
	if a == b {
		return 1
	}
	if s, ok := e[[2]string{a, b}]; ok {
		return s
	}
	return e[[2]string{b, a}]
}

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func bullet(id, cat, content string, helpful, harmful int, conf float64) *mdstore.Bullet {
	return &mdstore.Bullet{ID: id, Category: cat, Content: content, HelpfulCount: helpful, HarmfulCount: harmful,
		Confidence: conf, Priority: 5, Version: 1, IsActive: true, Validation: "none",
		CreatedAt: now.Add(-time.Hour), Path: mdstore.BulletPath(true, cat, id)}
}

func fptr(f float64) *float64 { return &f }

func planOne(t *testing.T, e stubEngine, bs []*mdstore.Bullet, lesson mdstore.Lesson, set Settings) (*Plan, *Playbook) {
	t.Helper()
	pb := New(bs, bulletid.NewAllocator(nil), func() Matcher { return similar.NewIndex(e) }, now)
	r := &mdstore.Reflection{ID: "R1", Path: "context/reflections/pending/R1.md", Lessons: []mdstore.Lesson{lesson}}
	p, err := PlanCuration(pb, []*mdstore.Reflection{r}, set)
	if err != nil {
		t.Fatal(err)
	}
	return p, pb
}

func TestPlanSimilarityBoundaries(t *testing.T) {
	const target = "Use pagination to collect every page."
	const lesson = "Always page through results."
	cases := []struct {
		score     float64
		autoMerge bool
		want      string
	}{
		{0.95, false, ActIncrementHelpful},
		{0.85 + 1e-6, false, ActIncrementHelpful},
		{0.85, false, ActProposal}, // exactly the threshold merges (≤)
		{0.85, true, ActMergeSimilar},
		{0.85 - 1e-12, true, ActMergeSimilar}, // within tolerance of 0.85: still merge
		{0.8, true, ActMergeSimilar},          // auto-merge needs ≥ 0.8: exactly 0.8 is applied
		{0.79, true, ActProposal},
		{0.6, true, ActProposal},  // exactly 0.6 merges; < 0.8 stays a proposal
		{0.6, false, ActProposal}, // without --auto-merge: proposal
		{0.6 - 1e-12, false, ActProposal},
		{0.6 - 1e-6, false, ActNewBullet},
		{0.1, false, ActNewBullet},
	}
	for _, c := range cases {
		e := stubEngine{{lesson, target}: c.score}
		set := DefaultSettings()
		set.AutoMerge = c.autoMerge
		p, _ := planOne(t, e, []*mdstore.Bullet{bullet("STRAT-001", "strategy", target, 0, 0, 0.5)},
			mdstore.Lesson{Content: lesson, Category: "strategy", Confidence: fptr(0.9)}, set)
		if got := p.Actions[0].Type; got != c.want {
			t.Errorf("similarity %v auto-merge %v: got %s, want %s", c.score, c.autoMerge, got, c.want)
		}
	}
}

func TestPlanIncrementCapsConfidence(t *testing.T) {
	for _, c := range []struct{ before, after float64 }{{0.95, 1.0}, {0.98, 1.0}, {1.0, 1.0}, {0.5, 0.55}} {
		e := stubEngine{{"Retry the upload twice.", "B"}: 0.9}
		_, pb := planOne(t, e, []*mdstore.Bullet{bullet("STRAT-001", "strategy", "B", 1, 0, c.before)},
			mdstore.Lesson{Content: "Retry the upload twice.", Category: "strategy", Confidence: fptr(0.9)}, DefaultSettings())
		b := pb.Bullet("STRAT-001")
		if b.Confidence != c.after || b.HelpfulCount != 2 || b.UsageCount != 1 || !b.LastUsedAt.Equal(now) {
			t.Errorf("confidence %v: got %+v", c.before, b)
		}
	}
}

func TestPlanHarmfulArchive(t *testing.T) {
	for _, c := range []struct {
		helpful int
		archive bool
	}{{1, true}, {2, false}, {0, true}} {
		e := stubEngine{}
		bs := []*mdstore.Bullet{bullet("STRAT-001", "strategy", "B", c.helpful, 4, 0.5)}
		pb := New(bs, bulletid.NewAllocator(nil), func() Matcher { return similar.NewIndex(e) }, now)
		r := &mdstore.Reflection{ID: "R1", HarmfulBullets: []string{"STRAT-001"}}
		p, err := PlanCuration(pb, []*mdstore.Reflection{r}, DefaultSettings())
		if err != nil {
			t.Fatal(err)
		}
		b := pb.Bullet("STRAT-001")
		if b.HarmfulCount != 5 || b.IsActive == c.archive || (p.Count(ActArchive) == 1) != c.archive {
			t.Errorf("harmful 5 helpful %d: active=%v actions=%v", c.helpful, b.IsActive, p.Actions)
		}
	}
}

func TestPlanMergeVersionAndLossless(t *testing.T) {
	target := "Check the API docs first. Then call it."
	lesson := "Check the API docs first. Also verify the response schema."
	e := stubEngine{{lesson, target}: 0.82}
	set := DefaultSettings()
	set.AutoMerge, set.RequireValidation = true, true
	p, pb := planOne(t, e, []*mdstore.Bullet{bullet("API-007", "api", target, 2, 1, 0.7)},
		mdstore.Lesson{Content: lesson, Category: "api", Confidence: fptr(0.8)}, set)
	a := p.Actions[0]
	if a.Type != ActMergeSimilar || a.BulletID != "API-007-v2" {
		t.Fatalf("got %+v", a)
	}
	nb := pb.Bullet("API-007-v2")
	if nb.ParentBulletID != "API-007" || nb.Version != 2 || nb.HelpfulCount != 2 || nb.HarmfulCount != 1 || nb.Validation != "required" {
		t.Errorf("new version: %+v", nb)
	}
	if pb.Bullet("API-007").IsActive {
		t.Error("the merged bullet stays active")
	}
	for _, src := range []string{target, lesson} {
		if miss := MissingSentences(nb.Content, src); len(miss) > 0 {
			t.Errorf("lost %q", miss)
		}
	}
}

func TestPlanNewBulletValidationAndSkip(t *testing.T) {
	for _, c := range []struct {
		conf       float64
		want, vali string
	}{{0.59, ActNewBullet, "required"}, {0.6, ActNewBullet, "none"}, {0.5, ActNewBullet, "required"}, {0.49, ActSkip, ""}} {
		p, pb := planOne(t, stubEngine{}, nil, mdstore.Lesson{Content: "A brand new idea.", Category: "strategy", Confidence: fptr(c.conf)}, DefaultSettings())
		a := p.Actions[0]
		if a.Type != c.want {
			t.Errorf("confidence %v: %s, want %s", c.conf, a.Type, c.want)
			continue
		}
		if a.Type == ActNewBullet {
			if a.BulletID != "STRAT-001" || pb.Bullet(a.BulletID).Validation != c.vali {
				t.Errorf("confidence %v: %+v", c.conf, pb.Bullet(a.BulletID))
			}
		}
	}
}

func TestPlanHoldsSecrets(t *testing.T) {
	p, pb := planOne(t, stubEngine{}, nil, mdstore.Lesson{Content: "Log in with password=hunter2 first."}, DefaultSettings())
	if len(p.Held) != 1 || len(p.Actions) != 0 || len(pb.Touched()) != 0 || len(p.Reflections) != 0 {
		t.Errorf("secret lesson: %+v", p)
	}
}

func TestPlanSameCategoryFirst(t *testing.T) {
	e := stubEngine{{"Retry the upload twice.", "in strategy"}: 0.7, {"Retry the upload twice.", "in api"}: 0.95}
	bs := []*mdstore.Bullet{bullet("STRAT-001", "strategy", "in strategy", 0, 0, 0.5), bullet("API-001", "api", "in api", 0, 0, 0.5)}
	p, _ := planOne(t, e, bs, mdstore.Lesson{Content: "Retry the upload twice.", Category: "strategy", Confidence: fptr(0.9)}, DefaultSettings())
	if a := p.Actions[0]; a.TargetBulletID != "STRAT-001" || a.Type != ActProposal {
		t.Errorf("got %+v", a)
	}
	// No bullet in the lesson's category: all categories are searched.
	p, _ = planOne(t, e, bs, mdstore.Lesson{Content: "Retry the upload twice.", Category: "pattern", Confidence: fptr(0.9)}, DefaultSettings())
	if a := p.Actions[0]; a.TargetBulletID != "API-001" || a.Type != ActIncrementHelpful {
		t.Errorf("got %+v", a)
	}
}

func TestMaintenanceDedupBoundary(t *testing.T) {
	for _, c := range []struct {
		score float64
		dedup bool
	}{{0.90, false}, {0.90 + 1e-6, true}, {0.90 - 1e-12, false}} {
		e := stubEngine{{"A", "B"}: c.score}
		pb := New([]*mdstore.Bullet{bullet("STRAT-001", "strategy", "A", 0, 0, 0.5), bullet("STRAT-002", "strategy", "B", 0, 0, 0.5)},
			bulletid.NewAllocator(nil), func() Matcher { return similar.NewIndex(e) }, now)
		rep, err := PlanMaintenance(pb, DefaultSettings())
		if err != nil {
			t.Fatal(err)
		}
		merged := false
		for _, a := range rep.Actions {
			merged = merged || a.Type == ActMergeSimilar
		}
		if merged != c.dedup {
			t.Errorf("similarity %v: merged=%v, want %v (%v)", c.score, merged, c.dedup, rep.Actions)
		}
	}
}

func TestIDsNeverReused(t *testing.T) {
	a := bulletid.NewAllocator(nil, "STRAT-007", "STRAT-003-v4", "API-010")
	if got := a.Next("strategy"); got != "STRAT-008" {
		t.Errorf("next strategy: %s", got)
	}
	if got := a.NextVersion("STRAT-003-v2"); got != "STRAT-003-v5" {
		t.Errorf("next version: %s", got)
	}
	if got := a.Next("deployment"); got != "DEPLOYME-001" {
		t.Errorf("unknown category: %s", got)
	}
}

// Active stays sorted by id and holds exactly the active bullets while
// actions add and archive bullets after it was first asked.
func TestActiveFollowsActions(t *testing.T) {
	pb := New([]*mdstore.Bullet{
		bullet("API-002", "api", "Call the API twice.", 0, 0, 0.7),
		bullet("API-005", "api", "Read the docs.", 0, 6, 0.7),
		bullet("STRAT-001", "strategy", "Plan first.", 1, 0, 0.7),
	}, bulletid.NewAllocator(nil), nil, now)
	_ = pb.Active()
	for _, a := range []Action{
		{Type: ActNewBullet, BulletID: "API-006", Category: "api", Content: "Check the status code.", Confidence: 0.8},
		{Type: ActMergeSimilar, BulletID: "API-002-v2", TargetBulletID: "API-002", MergedFrom: []string{"API-002", "STRAT-001"}, Content: "Call the API twice. Plan first."},
		{Type: ActArchive, BulletID: "API-005", TargetBulletID: "API-005"},
		{Type: ActNewBullet, BulletID: "OTHER-001", Category: "other", Content: "Keep notes.", Confidence: 0.8},
	} {
		if err := pb.Do(a); err != nil {
			t.Fatalf("%s: %v", a.Type, err)
		}
	}
	var want []string
	pb.bullets.each(func(b *mdstore.Bullet) {
		if b.IsActive {
			want = append(want, b.ID)
		}
	})
	slices.Sort(want)
	var got []string
	for _, b := range pb.Active() {
		got = append(got, b.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Active = %v, want %v", got, want)
	}
	if len(got) != 3 {
		t.Fatalf("Active = %v: want the merged version and the two new bullets", got)
	}
}
