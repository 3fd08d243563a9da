package playbook

import (
	"strings"
	"testing"
)

// The summary `context curate` prints follows the context-curate
// procedure's layout: the reflection in the header, each action with its
// numbers, the context stats, the next step.
func TestWriteSummaryProcedureLayout(t *testing.T) {
	rep := Report{RunID: "run-1", Counts: map[string]int{ActNewBullet: 1, ActIncrementHelpful: 2},
		ReflectionsMerged: []string{"reflection-abc123"},
		Actions: []Action{
			{Type: ActNewBullet, BulletID: "STRAT-042", Confidence: 0.85, ReflectionID: "reflection-abc123", Lesson: 1},
			{Type: ActIncrementHelpful, TargetBulletID: "STRAT-001", ReflectionID: "reflection-abc123", Lesson: 2},
			{Type: ActIncrementHelpful, TargetBulletID: "PATTERN-017", ReflectionID: "reflection-abc123", Lesson: 3},
		},
		Bullets: []BulletTotals{{ID: "STRAT-042", Active: true}, {ID: "STRAT-001", Helpful: 16, Active: true}, {ID: "PATTERN-017", Helpful: 10, Active: true}},
		Before:  Stats{Active: 126, ByCategory: map[string]int{}},
		After:   Stats{Active: 127, AvgConfidence: 0.78, ValidationRequired: 3, ByCategory: map[string]int{"strategy": 100, "pattern": 27}, Helpful: 300, Harmful: 4, Tokens: 5000},
	}
	var b strings.Builder
	rep.WriteSummary(&b, false)
	want := `✅ Curation Complete: reflection-abc123

📊 Merge Actions:
   - STRAT-042: New bullet added (confidence: 0.85) [reflection-abc123#1]
   - STRAT-001: Helpful count +1 (now 16 helpful, 0 harmful) [reflection-abc123#2]
   - PATTERN-017: Helpful count +1 (now 10 helpful, 0 harmful) [reflection-abc123#3]

📈 Context Stats:
   - Total active bullets: 127 (was 126)
   - Avg confidence: 0.78
   - Bullets needing validation: 3
   - By category: pattern 27, strategy 100
   - Helpful 300, harmful 4; ~5000 tokens

💡 Next: Run curator context review approve|reject ID for the 3 bullets awaiting validation, then curator context inject --top 10 --file CLAUDE.md to add the top bullets to CLAUDE.md
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Each kind of action reads as the procedure words it; without symbols
// the sections have no icons.
func TestWriteSummaryActions(t *testing.T) {
	cases := []struct {
		act  Action
		want string
	}{
		{Action{Type: ActNewBullet, BulletID: "VERIF-001", Confidence: 0.5, Validation: "required"}, "   - VERIF-001: New bullet added (confidence: 0.50, needs validation)"},
		{Action{Type: ActIncrementHarmful, TargetBulletID: "ANTI-013"}, "   - ANTI-013: Harmful count +1 (now 0 helpful, 5 harmful)"},
		{Action{Type: ActMergeSimilar, BulletID: "STRAT-001-v2", TargetBulletID: "STRAT-001", MergedFrom: []string{"STRAT-001", "STRAT-042"}, Similarity: 0.74},
			"   - STRAT-001-v2: Merged STRAT-001 + STRAT-042 (similarity: 0.74)"},
		{Action{Type: ActProposal, TargetBulletID: "STRAT-001", MergedFrom: []string{"STRAT-001", "STRAT-007"}, Reasoning: "overlap 0.70"}, "   - STRAT-001: Proposed for review: overlap 0.70"},
		{Action{Type: ActArchive, TargetBulletID: "ANTI-013", Reasoning: "harmful_count 5 ≥ 5 and helpful_count 0 < 2"}, "   - ANTI-013: Archived: harmful_count 5 ≥ 5 and helpful_count 0 < 2"},
		{Action{Type: ActPrune, TargetBulletID: "API-002", Reasoning: "unused for 91 days"}, "   - API-002: Pruned: unused for 91 days"},
		{Action{Type: ActRebalance, TargetBulletID: "API-003", Priority: 7}, "   - API-003: Priority rebalanced to 7"},
		{Action{Type: ActSkip, ReflectionID: "refl-1", Lesson: 3, Reasoning: "confidence 0.30 is under --min-confidence 0.50"}, "   - Lesson skipped [refl-1#3]: confidence 0.30 is under --min-confidence 0.50"},
	}
	for _, c := range cases {
		rep := Report{Counts: map[string]int{}, Actions: []Action{c.act}, ReflectionsMerged: []string{},
			Bullets: []BulletTotals{{ID: "ANTI-013", Harmful: 5, Active: true}}, After: Stats{ByCategory: map[string]int{}}}
		var b strings.Builder
		rep.WriteStyledSummary(&b, false, SummaryStyle{Mark: func(s string) string { return s }, Icon: func(string) string { return "" }})
		got := b.String()
		if !strings.Contains(got, "\n"+c.want+"\n") {
			t.Errorf("%s: no line %q in\n%s", c.act.Type, c.want, got)
		}
		if !strings.HasPrefix(got, "ok Curation Complete: no reflection merged\n\nMerge Actions:\n") {
			t.Errorf("header without symbols:\n%s", got)
		}
	}
}
