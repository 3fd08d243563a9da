package memory

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// txOn is a transaction on a new store in a new git repository.
func txOn(t *testing.T) *mdstore.Tx {
	t.Helper()
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
		t.Setenv(k, "test")
	}
	for _, k := range []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
		t.Setenv(k, "test@example.com")
	}
	s, _, err := mdstore.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.Begin(mdstore.TxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tx.Close)
	return tx
}

func fact(id, brief string) mdstore.NewMemory {
	return mdstore.NewMemory{ID: id, Type: "fact", Brief: brief, Author: "a", Factors: map[string]float64{"surprisal": 0.95},
		IngestionTime: time.Date(2026, 11, 29, 9, 10, 0, 0, time.UTC)}
}

// The one set of request checks: what the command line and the MCP tools
// both send is refused as a wrong request (exit 2) or blocked (exit 3),
// and nothing is written.
func TestUseCasesRefuse(t *testing.T) {
	ctx := context.Background()
	tx := txOn(t)
	if _, err := Add(ctx, tx, AddRequest{Record: fact("f-a", "plain fact")}); err != nil {
		t.Fatal(err)
	}
	bad := func(r mdstore.NewMemory, edit func(*mdstore.NewMemory)) mdstore.NewMemory { edit(&r); return r }
	for name, c := range map[string]struct {
		err  error
		kind func(error) bool
		say  string
	}{
		"type rule": {kind: refuse.IsRequest, say: `type "rule": want one of`, err: func() error {
			_, err := Add(ctx, tx, AddRequest{Record: bad(fact("f-b", "x"), func(r *mdstore.NewMemory) { r.Type = "rule" })})
			return err
		}()},
		"confidence 9": {kind: refuse.IsRequest, say: "content_confidence 9", err: func() error {
			_, err := Add(ctx, tx, AddRequest{Record: bad(fact("f-b", "x"), func(r *mdstore.NewMemory) { r.Confidence = 9 })})
			return err
		}()},
		"confidence 0 given": {kind: refuse.IsRequest, say: "content_confidence 0: want 1 to 5", err: func() error {
			_, err := Add(ctx, tx, AddRequest{Record: bad(fact("f-b", "x"), func(r *mdstore.NewMemory) { r.Confidence = 0 }), ConfidenceSet: true})
			return err
		}()},
		"factor 1.5": {kind: refuse.IsRequest, say: "importance_factors.surprisal 1.5", err: func() error {
			_, err := Add(ctx, tx, AddRequest{Record: bad(fact("f-b", "x"), func(r *mdstore.NewMemory) { r.Factors = map[string]float64{"surprisal": 1.5} })})
			return err
		}()},
		"factor NaN": {kind: refuse.IsRequest, say: "importance_factors.proximity NaN", err: func() error {
			_, err := Add(ctx, tx, AddRequest{Record: bad(fact("f-b", "x"), func(r *mdstore.NewMemory) { r.Factors = map[string]float64{"proximity": math.NaN()} })})
			return err
		}()},
		"unknown factor": {kind: refuse.IsRequest, say: `unknown factor "proximty"`, err: func() error {
			_, err := Add(ctx, tx, AddRequest{Record: bad(fact("f-b", "x"), func(r *mdstore.NewMemory) { r.Factors = map[string]float64{"proximty": 0.5} })})
			return err
		}()},
		"id with a bidi control": {kind: refuse.IsRequest, say: "U+202E", err: func() error {
			_, err := Add(ctx, tx, AddRequest{Record: fact("f-\u202eb", "x")})
			return err
		}()},
		"id taken": {kind: refuse.IsRequest, say: "already exists", err: func() error {
			_, err := Add(ctx, tx, AddRequest{Record: fact("f-a", "again")})
			return err
		}()},
		"secret": {kind: refuse.IsBlocked, say: "memory add: brief looks like it holds a secret", err: func() error {
			_, err := Add(ctx, tx, AddRequest{Record: fact("f-s", "key AKIAQWJ4ZT7NRX5LBV2M here")})
			return err
		}()},
		"no key to update": {kind: refuse.IsRequest, say: "nothing to update", err: func() error {
			_, err := Update(ctx, tx, UpdateRequest{ID: "f-a"})
			return err
		}()},
		"update of the id": {kind: refuse.IsRequest, say: "id follows the file", err: func() error {
			_, err := Update(ctx, tx, UpdateRequest{ID: "f-a", Sets: []Set{{Key: "id", Value: "f-z"}}})
			return err
		}()},
		"invalid update": {kind: refuse.IsBlocked, say: "invalid memory", err: func() error {
			_, err := Update(ctx, tx, UpdateRequest{ID: "f-a", Sets: []Set{{Key: "content_confidence", Value: 9}}})
			return err
		}()},
		"restore of an inbox entry": {kind: refuse.IsRequest, say: "not in the trash", err: func() error {
			_, err := Restore(ctx, tx, RestoreRequest{ID: "f-a"})
			return err
		}()},
		"too few cases": {kind: refuse.IsBlocked, say: "too few distinct cases", err: func() error {
			_, err := PromoteRule(ctx, tx, PromoteRuleRequest{Scenario: "nothing"})
			return err
		}()},
		"empty scenario": {kind: refuse.IsRequest, say: "scenario", err: func() error {
			_, err := PromoteRule(ctx, tx, PromoteRuleRequest{Scenario: "  "})
			return err
		}()},
		"task and window": {kind: refuse.IsRequest, say: "not both", err: func() error {
			_, err := Curate(ctx, tx, CurateRequest{Task: "整理范围：2026-11-29T09:00:00Z 到 2026-11-29T10:00:00Z", From: t0})
			return err
		}()},
		"dedup prefix 0 given": {kind: refuse.IsRequest, say: "dedup_prefix 0: want at least 1", err: func() error {
			_, err := Curate(ctx, tx, CurateRequest{DedupPrefix: 0, DedupPrefixSet: true})
			return err
		}()},
		"task without a window": {kind: refuse.IsRequest, say: "task: the task names no window", err: func() error {
			_, err := Curate(ctx, tx, CurateRequest{Task: "tidy up"})
			return err
		}()},
		"negative page": {kind: refuse.IsRequest, say: "negative", err: func() error {
			_, err := List(ctx, tx.Store, ListRequest{Query: mdstore.MemoryQuery{Limit: -1}})
			return err
		}()},
	} {
		if c.err == nil || !c.kind(c.err) || !strings.Contains(c.err.Error(), c.say) {
			t.Errorf("%s: got %v (request %v, blocked %v), want it to say %q", name, c.err, refuse.IsRequest(c.err), refuse.IsBlocked(c.err), c.say)
		}
	}
	list, err := List(ctx, tx.Store, ListRequest{})
	if err != nil || len(list.Entries) != 1 || list.Entries[0].ID != "f-a" || list.Entries[0].ContentConfidence != mdstore.DefaultConfidence {
		t.Fatalf("after the refusals the store holds %+v (%v), want f-a only, unchanged", list, err)
	}
}

// The use-cases one after another, each report as the commands print it.
func TestUseCasesReport(t *testing.T) {
	ctx := context.Background()
	tx := txOn(t)
	added, err := Add(ctx, tx, AddRequest{Record: fact("f-a", "plain fact")})
	if err != nil || added.Commit == "" || added.Path != "memory/inbox/f-a.md" {
		t.Fatalf("add: %+v %v", added, err)
	}
	up, err := Update(ctx, tx, UpdateRequest{ID: "f-a", Sets: []Set{{Key: "maturity", Value: "confirmed"}}})
	if err != nil || up.Path != "memory/confirmed/fact/f-a.md" || strings.Join(up.Changed, ",") != "maturity" {
		t.Fatalf("update: %+v %v", up, err)
	}
	del, err := Delete(ctx, tx, DeleteRequest{ID: "f-a", Reason: "duplicate"})
	if err != nil || del.From != "memory/confirmed/fact/f-a.md" || del.Path != "memory/trash/f-a.md" {
		t.Fatalf("delete: %+v %v", del, err)
	}
	back, err := Restore(ctx, tx, RestoreRequest{ID: "f-a"})
	if err != nil || back.Path != "memory/confirmed/fact/f-a.md" {
		t.Fatalf("restore: %+v %v", back, err)
	}
	shown, err := Show(ctx, tx.Store, ShowRequest{ID: "f-a"})
	if err != nil || shown.Status != "confirmed" || !strings.Contains(string(shown.File), "maturity: confirmed") {
		t.Fatalf("show: %+v %v", shown, err)
	}
	for i, brief := range []string{"retry the flaky job", "pin the runner image", "cache the modules"} {
		r := fact("l-"+string(rune('a'+i)), brief)
		r.Type, r.Scenario = "lesson", "flaky CI"
		if _, err := Add(ctx, tx, AddRequest{Record: r}); err != nil {
			t.Fatal(err)
		}
	}
	rule, err := PromoteRule(ctx, tx, PromoteRuleRequest{Scenario: "  flaky CI "})
	if err != nil || rule.Scenario != "flaky CI" || len(rule.SourceCases) != 3 || rule.ID != RuleID("flaky CI") {
		t.Fatalf("promote-rule: %+v %v", rule, err)
	}
	drawn, err := Show(ctx, tx.Store, ShowRequest{ID: rule.ID})
	if err != nil || drawn.Author != "curator" {
		t.Fatalf("the rule's author: %+v %v (want curator when none is given)", drawn, err)
	}
	pass, err := Curate(ctx, tx, CurateRequest{From: t0, To: t0.Add(time.Hour)})
	if err != nil || pass.Commit == "" || len(pass.Candidates) != 3 || len(pass.Promoted)+len(pass.Discarded) != 3 {
		t.Fatalf("curate: %+v %v", pass, err)
	}
	again, err := Curate(ctx, tx, CurateRequest{From: t0, To: t0.Add(time.Hour), DryRun: true})
	if err != nil || again.Commit != "" || !again.NothingToChange || len(again.Candidates) != 0 {
		t.Fatalf("curate again (dry run): %+v %v", again, err)
	}
	purged, err := PurgeTrash(ctx, tx, PurgeRequest{OlderThan: time.Hour})
	if err != nil || len(purged.Purged) != 0 || purged.Invalid == nil || purged.Purged == nil {
		t.Fatalf("purge: %+v %v", purged, err)
	}
	if _, err := PurgeTrash(ctx, tx, PurgeRequest{OlderThan: -time.Hour}); !refuse.IsRequest(err) {
		t.Fatalf("purge older than -1h: %v, want a wrong request", err)
	}
}

// TestAddRefusesTextThatIsNotUTF8: a field that is not UTF-8 is a refused
// request naming it (YAML would store it as !!binary and read it back
// changed), never a memory stored.
func TestAddRefusesTextThatIsNotUTF8(t *testing.T) {
	for _, c := range []struct {
		rec   mdstore.NewMemory
		param string
	}{
		{mdstore.NewMemory{Type: "fact", Brief: "caf\xe9 latte"}, "brief"},
		{mdstore.NewMemory{Type: "fact", Brief: "b", Author: "\xff"}, "author"},
		{mdstore.NewMemory{Type: "lesson", Brief: "b", Scenario: "x\xc3"}, "scenario"},
		{mdstore.NewMemory{Type: "fact", Brief: "b", Tags: []string{"ok", "\xfe"}}, "tags"},
	} {
		err := AddRequest{Record: c.rec}.Check()
		var pe *refuse.ParamError
		if !refuse.IsRequest(err) || !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("%+v: %v, want a refused request naming %s", c.rec, err, c.param)
		}
	}
	if err := (AddRequest{Record: mdstore.NewMemory{Type: "fact", Brief: "café latte ☕", Tags: []string{"naïve"}}}).Check(); err != nil {
		t.Errorf("UTF-8 text refused: %v", err)
	}
}
