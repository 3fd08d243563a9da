package memory

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/mdstore"
)

// stored builds a memory as it would be read from its file.
func stored(t *testing.T, status, typ, id string, extra ...string) *mdstore.Memory {
	t.Helper()
	m, err := mdstore.NewMemoryRecord(mdstore.NewMemory{ID: id, Type: typ, Brief: "brief of " + id, IngestionTime: t0, Body: "body"})
	if err != nil {
		t.Fatal(err)
	}
	text := string(m.Doc.Bytes())
	if status != "inbox" {
		text = strings.Replace(text, "status: inbox", "status: "+status, 1)
	}
	text = strings.Replace(text, "---\nbody", strings.Join(extra, "")+"---\nbody", 1)
	m, err = mdstore.ParseMemory(mdstore.MemoryPath(status, typ, id), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func onlyChange(t *testing.T, r *mdstore.Run) mdstore.Change {
	t.Helper()
	if len(r.Changes.Changes) != 1 {
		t.Fatalf("changes %+v, want one", r.Changes.Changes)
	}
	return r.Changes.Changes[0]
}

func TestUpdateInPlace(t *testing.T) {
	m := stored(t, "inbox", "fact", "m-1")
	e, err := PlanUpdate(m, []Set{{Key: "brief", Value: "new brief"}, {Key: "importance_factors.proximity", Value: 0.8}}, t0, config.DefaultObservationDays)
	if err != nil {
		t.Fatal(err)
	}
	if e.From != "memory/inbox/m-1.md" || e.To != e.From || strings.Join(e.Changed, ",") != "brief,importance_factors.proximity" {
		t.Fatalf("%+v", e)
	}
	c := onlyChange(t, e.Run)
	if c.Path != e.From || !strings.Contains(string(c.Data), "brief: new brief\n") || e.Memory.Factor("proximity") != 0.8 {
		t.Fatalf("%+v\n%s", c, c.Data)
	}
	if e.Run.Commit.Summary != "memory update m-1" || e.Run.Commit.Decisions[0] != "update m-1: brief, importance_factors.proximity" {
		t.Fatalf("%+v", e.Run.Commit)
	}
}

func TestUpdateConfirmedInboxEntryIsPromoted(t *testing.T) {
	m := stored(t, "inbox", "concept", "m-2")
	e, err := PlanUpdate(m, []Set{{Key: "maturity", Value: "confirmed"}}, t0, config.DefaultObservationDays)
	if err != nil {
		t.Fatal(err)
	}
	if e.To != "memory/confirmed/concept/m-2.md" {
		t.Fatalf("to %s", e.To)
	}
	c := onlyChange(t, e.Run)
	if c.From != "memory/inbox/m-2.md" || c.Path != e.To {
		t.Fatalf("%+v", c)
	}
	for _, want := range []string{"status: confirmed\n", "maturity: confirmed\n", "observation:\n", "started_at: 2026-11-29T09:00:00Z", "outcome: pending"} {
		if !strings.Contains(string(c.Data), want) {
			t.Errorf("no %q in\n%s", want, c.Data)
		}
	}
}

func TestUpdateTypeOfConfirmedMovesFolder(t *testing.T) {
	m := stored(t, "confirmed", "fact", "m-3")
	e, err := PlanUpdate(m, []Set{{Key: "type", Value: "lesson"}}, t0, config.DefaultObservationDays)
	if err != nil {
		t.Fatal(err)
	}
	c := onlyChange(t, e.Run)
	if e.To != "memory/confirmed/lesson/m-3.md" || c.From != "memory/confirmed/fact/m-3.md" || c.Path != e.To {
		t.Fatalf("%+v %+v", e, c)
	}
	// an inbox entry's folder does not depend on its type
	e, err = PlanUpdate(stored(t, "inbox", "fact", "m-4"), []Set{{Key: "type", Value: "lesson"}}, t0, config.DefaultObservationDays)
	if err != nil || e.To != e.From {
		t.Fatalf("%+v %v", e, err)
	}
}

func TestUpdateRefusals(t *testing.T) {
	for _, key := range []string{"id", "status"} {
		_, err := PlanUpdate(stored(t, "inbox", "fact", "m-5"), []Set{{Key: key, Value: "x"}}, t0, config.DefaultObservationDays)
		var fixed *FixedKeyError
		if !errors.As(err, &fixed) || fixed.Key != key {
			t.Errorf("%s: %v", key, err)
		}
	}
	// status may be given as what the edit makes it, as the memory-curate
	// procedure patches a promotion; never as anything else.
	e, err := PlanUpdate(stored(t, "inbox", "fact", "m-5"), []Set{{Key: "maturity", Value: "confirmed"}, {Key: "status", Value: "confirmed"}}, t0, config.DefaultObservationDays)
	if err != nil || e.To != "memory/confirmed/fact/m-5.md" {
		t.Errorf("promotion with status confirmed: %v %+v", err, e)
	}
	if _, err := PlanUpdate(stored(t, "inbox", "fact", "m-5"), []Set{{Key: "status", Value: "inbox"}}, t0, config.DefaultObservationDays); err != nil {
		t.Errorf("status as it is: %v", err)
	}
	for _, sets := range [][]Set{{{Key: "status", Value: "confirmed"}}, {{Key: "maturity", Value: "confirmed"}, {Key: "status", Value: "trash"}}} {
		var fixed *FixedKeyError
		if _, err := PlanUpdate(stored(t, "inbox", "fact", "m-5"), sets, t0, config.DefaultObservationDays); !errors.As(err, &fixed) {
			t.Errorf("%v: %v", sets, err)
		}
	}
	_, err = PlanUpdate(stored(t, "inbox", "fact", "m-5"), []Set{{Key: "content_confidence", Value: 9}}, t0, config.DefaultObservationDays)
	if !errors.Is(err, ErrInvalidEdit) || !strings.Contains(err.Error(), "content_confidence") {
		t.Errorf("confidence 9: %v", err)
	}
}

func TestOccupied(t *testing.T) {
	e, err := PlanUpdate(stored(t, "inbox", "fact", "m-6"), []Set{{Key: "maturity", Value: "confirmed"}}, t0, config.DefaultObservationDays)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Occupied(func(string) bool { return false }); err != nil {
		t.Fatal(err)
	}
	err = e.Occupied(func(p string) bool { return p == "memory/confirmed/fact/m-6.md" })
	if !errors.Is(err, ErrOccupied) || err.Error() != "cannot move memory/inbox/m-6.md to memory/confirmed/fact/m-6.md: a file is already there" {
		t.Fatalf("%v", err)
	}
	// an edit in place is never in its own way
	e, _ = PlanUpdate(stored(t, "inbox", "fact", "m-7"), []Set{{Key: "brief", Value: "x"}}, t0, config.DefaultObservationDays)
	if err := e.Occupied(func(string) bool { return true }); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteAndUndelete(t *testing.T) {
	now := t0.Add(time.Hour)
	e, err := PlanDelete(stored(t, "confirmed", "fact", "m-8"), "", now)
	if err != nil {
		t.Fatal(err)
	}
	c := onlyChange(t, e.Run)
	if e.To != "memory/trash/m-8.md" || c.From != "memory/confirmed/fact/m-8.md" || c.Path != e.To {
		t.Fatalf("%+v %+v", e, c)
	}
	for _, want := range []string{"status: trash\n", "reason: deleted", "from: confirmed", "at: \"2026-11-29T10:00:00Z\"", "run: " + e.Run.Commit.RunID} {
		if !strings.Contains(string(c.Data), want) {
			t.Errorf("no %q in\n%s", want, c.Data)
		}
	}
	if e.Run.Commit.Summary != "memory delete m-8" || e.Run.Commit.Decisions[0] != "delete m-8: memory/confirmed/fact/m-8.md → memory/trash/m-8.md" {
		t.Fatalf("%+v", e.Run.Commit)
	}
	trashed, err := mdstore.ParseMemory(e.To, c.Data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PlanDelete(trashed, "", now); !errors.Is(err, ErrInTrash) || err.Error() != "memory m-8 is already in the trash" {
		t.Fatalf("delete twice: %v", err)
	}
	back, err := PlanRestore(trashed, now)
	if err != nil {
		t.Fatal(err)
	}
	c = onlyChange(t, back.Run)
	if back.To != "memory/confirmed/fact/m-8.md" || c.From != e.To || strings.Contains(string(c.Data), "trashed") || !strings.Contains(string(c.Data), "status: confirmed") {
		t.Fatalf("%+v\n%s", back, c.Data)
	}
	if _, err := PlanRestore(stored(t, "inbox", "fact", "m-9"), now); !errors.Is(err, ErrNotInTrash) {
		t.Fatalf("restore from inbox: %v", err)
	}
}

func trashedAt(t *testing.T, id, at string) *mdstore.Memory {
	t.Helper()
	extra := "trashed:\n  reason: deleted\n  from: inbox\n"
	if at != "" {
		extra = "trashed:\n  at: \"" + at + "\"\n  reason: deleted\n  from: inbox\n"
	}
	return stored(t, "trash", "fact", id, extra)
}

func TestPurgeDue(t *testing.T) {
	now := t0
	list := []*mdstore.Memory{
		trashedAt(t, "old", "2026-10-01T00:00:00Z"),
		trashedAt(t, "exactly-30d", now.Add(-30*24*time.Hour).Format(time.RFC3339)),
		trashedAt(t, "recent", "2026-11-28T00:00:00Z"),
		trashedAt(t, "no-time", ""),
		trashedAt(t, "bad-time", "last week"),
		trashedAt(t, "older", "2026-09-01T00:00:00Z"),
	}
	ids := func(ms []*mdstore.Memory) string {
		var out []string
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return strings.Join(out, ",")
	}
	if got := ids(PurgeDue(list, 30*24*time.Hour, now)); got != "old,older" {
		t.Fatalf("30d: %s", got)
	}
	if got := ids(PurgeDue(list, 0, now)); got != "old,exactly-30d,recent,older" {
		t.Fatalf("0s: %s", got)
	}
	run, purged := PlanPurge(list, 30*24*time.Hour, now)
	if strings.Join(purged, ",") != "old,older" || len(run.Changes.Changes) != 2 || !run.Changes.Changes[0].Delete ||
		run.Commit.Summary != "memory trash purge: 2 entries" || strings.Join(run.Commit.Decisions, ";") != "purge old;purge older" {
		t.Fatalf("%v %+v %+v", purged, run.Changes.Changes, run.Commit)
	}
	run, purged = PlanPurge(list[2:3], 30*24*time.Hour, now)
	if len(purged) != 0 || !run.Changes.Empty() || run.Commit.Summary != "memory trash purge: 0 entries" {
		t.Fatalf("%v %+v", purged, run.Commit)
	}
}

func TestPassWindow(t *testing.T) {
	wm := t0.Add(-time.Hour)
	called := 0
	watermark := func() (time.Time, error) { called++; return wm, nil }
	w, err := PassWindow("", time.Time{}, time.Time{}, t0, watermark)
	if err != nil || !w.From.Equal(wm) || !w.To.Equal(t0) || called != 1 || !w.FromWatermark {
		t.Fatalf("watermark → now: %+v %v", w, err)
	}
	w, err = PassWindow("", t0.Add(-2*time.Hour), t0.Add(-time.Minute), t0, watermark)
	if err != nil || !w.From.Equal(t0.Add(-2*time.Hour)) || !w.To.Equal(t0.Add(-time.Minute)) || called != 1 || w.FromWatermark {
		t.Fatalf("flags: %v %v (watermark read %d times)", w, err, called)
	}
	w, err = PassWindow("整理范围：2026-11-29T07:00:00Z 到 2026-11-29T08:00:00Z", time.Time{}, time.Time{}, t0, watermark)
	if err != nil || w.String() != "2026-11-29T07:00:00Z to 2026-11-29T08:00:00Z" || called != 1 || w.FromWatermark {
		t.Fatalf("task: %v %v", w, err)
	}
	var werr *WindowError
	if _, err := PassWindow("tidy up", time.Time{}, time.Time{}, t0, watermark); !errors.As(err, &werr) || !werr.Task || !errors.Is(err, ErrNoWindow) {
		t.Fatalf("no window in task: %v", err)
	}
	if _, err := PassWindow("", t0, time.Time{}, t0, watermark); !errors.As(err, &werr) || werr.Task {
		t.Fatalf("empty window: %v", err)
	}
	broken := errors.New("state.json is broken")
	if _, err := PassWindow("", time.Time{}, t0, t0, func() (time.Time, error) { return time.Time{}, broken }); !errors.Is(err, broken) || errors.As(err, &werr) {
		t.Fatalf("watermark error: %v", err)
	}
}

func TestPromoteRule(t *testing.T) {
	var cases []*mdstore.Memory
	for _, id := range []string{"c1", "c2", "c3"} {
		cases = append(cases, stored(t, "inbox", "lesson", id))
	}
	d, err := PlanRule("flaky CI", cases, "curator", nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	c := onlyChange(t, d.Run)
	if d.ID != RuleID("flaky CI") || c.Path != "memory/confirmed/lesson/"+d.ID+".md" || strings.Join(d.Cases, ",") != "c1,c2,c3" ||
		d.Run.Commit.Decisions[0] != "rule "+d.ID+" from c1, c2, c3" {
		t.Fatalf("%+v %+v", d, c)
	}
	rule, err := mdstore.ParseMemory(c.Path, c.Data)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := PlanRule("flaky CI", cases, "curator", rule, t0.Add(time.Hour)); err != nil || !d.Run.Changes.Empty() {
		t.Fatalf("same cases again: %+v %v", d, err)
	}
	if d, err := PlanRule("flaky CI", append(cases, stored(t, "inbox", "lesson", "c4")), "curator", rule, t0); err != nil || d.Run.Changes.Empty() {
		t.Fatalf("a new case: %+v %v", d, err)
	}
	if _, err := PlanRule("flaky CI", cases[:2], "curator", nil, t0); !errors.Is(err, ErrTooFewCases) {
		t.Fatalf("two cases: %v", err)
	}
}

// The memory-curate procedure patches a promotion with its own
// observation: the update keeps it as given.
func TestUpdatePromotionKeepsGivenObservation(t *testing.T) {
	m := stored(t, "inbox", "fact", "m-obs")
	given := map[string]any{"started_at": "2026-11-28T00:00:00Z", "window_days": 14, "outcome": "pending"}
	e, err := PlanUpdate(m, []Set{{Key: "maturity", Value: "confirmed"}, {Key: "status", Value: "confirmed"}, {Key: "observation", Value: given}}, t0, config.DefaultObservationDays)
	if err != nil {
		t.Fatal(err)
	}
	c := onlyChange(t, e.Run)
	if c.Path != "memory/confirmed/fact/m-obs.md" {
		t.Fatalf("to %s", c.Path)
	}
	for _, want := range []string{"started_at: \"2026-11-28T00:00:00Z\"", "window_days: 14\n", "status: confirmed\n"} {
		if !strings.Contains(string(c.Data), want) {
			t.Errorf("no %q in\n%s", want, c.Data)
		}
	}
	if strings.Contains(string(c.Data), "2026-11-29T09:00:00Z\n    window_days: 7") || strings.Count(string(c.Data), "observation:") != 1 {
		t.Errorf("the promotion replaced the given observation:\n%s", c.Data)
	}

	// One key of the observation given: the others are the promotion's.
	m = stored(t, "inbox", "fact", "m-obs2")
	e, err = PlanUpdate(m, []Set{{Key: "maturity", Value: "confirmed"}, {Key: "observation.window_days", Value: 3}}, t0, config.DefaultObservationDays)
	if err != nil {
		t.Fatal(err)
	}
	c = onlyChange(t, e.Run)
	if !strings.Contains(string(c.Data), "observation:\n  window_days: 3\n  started_at: 2026-11-29T09:00:00Z\n  outcome: pending\n") {
		t.Errorf("observation not completed:\n%s", c.Data)
	}
}

// Editing one key of a map keeps the other keys, in their order.
func TestUpdateMapKeyKeepsOrder(t *testing.T) {
	m := stored(t, "inbox", "fact", "m-map", "links:\n  zeta: z\n  alpha: a\n  mid: m\n")
	e, err := PlanUpdate(m, []Set{{Key: "links.alpha", Value: "A"}, {Key: "links.new", Value: "x"}}, t0, config.DefaultObservationDays)
	if err != nil {
		t.Fatal(err)
	}
	c := onlyChange(t, e.Run)
	if !strings.Contains(string(c.Data), "links:\n  zeta: z\n  alpha: A\n  mid: m\n  new: x\n") {
		t.Errorf("map order lost:\n%s", c.Data)
	}
	// The importance factors, in the order the file gives them.
	m = stored(t, "inbox", "fact", "m-map2", "importance_factors:\n  surprisal: 0.5\n  proximity: 0.4\n  unambiguity: 0.2\n  entity_priority: 0.1\n")
	e, err = PlanUpdate(m, []Set{{Key: "importance_factors.proximity", Value: 0.9}}, t0, config.DefaultObservationDays)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(onlyChange(t, e.Run).Data); !strings.Contains(got, "importance_factors:\n  surprisal: 0.5\n  proximity: 0.9\n  unambiguity: 0.2\n  entity_priority: 0.1\n") {
		t.Errorf("importance_factors order changed:\n%s", got)
	}
}

// A single case is never made a rule by an update: maturity rule is
// reached only through promote-rule. An existing rule may be updated.
func TestUpdateRefusesMaturityRule(t *testing.T) {
	cases := []struct {
		name string
		m    *mdstore.Memory
		sets []Set
		ok   bool
	}{
		{"inbox case", stored(t, "inbox", "lesson", "c-1"), []Set{{Key: "maturity", Value: "rule"}}, false},
		{"confirmed lesson", stored(t, "confirmed", "lesson", "c-2"), []Set{{Key: "maturity", Value: "rule"}}, false},
		{"beside other keys", stored(t, "inbox", "lesson", "c-3"), []Set{{Key: "brief", Value: "b"}, {Key: "maturity", Value: "rule"}}, false},
		{"a fact", stored(t, "inbox", "fact", "f-1"), []Set{{Key: "maturity", Value: "rule"}}, false},
		{"a rule stays a rule", storedRule(t, "r-1"), []Set{{Key: "maturity", Value: "rule"}, {Key: "brief", Value: "b"}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := PlanUpdate(c.m, c.sets, t0, config.DefaultObservationDays)
			var rule *RuleMaturityError
			switch {
			case c.ok && err != nil:
				t.Errorf("refused: %v", err)
			case !c.ok && (!errors.As(err, &rule) || !strings.Contains(err.Error(), "promote-rule") || !strings.Contains(err.Error(), c.m.ID)):
				t.Errorf("got %v, want a refusal naming promote-rule", err)
			}
		})
	}
}

// A rule's id is a UUID, as the memory procedure names rule files
// (confirmed/lesson/<rule_uuid>.md), and the same for the same scenario.
func TestRuleIDIsUUID(t *testing.T) {
	id := RuleID("flaky CI")
	u, err := uuid.Parse(id)
	if err != nil || u.String() != id || u.Version() != 5 {
		t.Fatalf("RuleID = %q (%v), want a version 5 UUID", id, err)
	}
	if RuleID(" flaky CI ") != id || RuleID("deploys") == id {
		t.Errorf("RuleID not stable per scenario")
	}
}

// storedRule is a confirmed lesson of maturity rule.
func storedRule(t *testing.T, id string) *mdstore.Memory {
	t.Helper()
	m := stored(t, "confirmed", "lesson", id)
	r, err := mdstore.ParseMemory(m.Path, []byte(strings.Replace(string(m.Doc.Bytes()), "maturity: case", "maturity: rule", 1)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}
