package dashboard

import (
	"strings"
	"testing"

	"github.com/curator-dev/curator/pipeline"
)

// hostileState is a pipeline whose every text tries to inject markup.
func hostileState() (*pipeline.State, *pipeline.Report) {
	st := &pipeline.State{
		PipelineID: "id-1", PipelineType: "sdd", ProjectName: "shop", ProjectPath: "/src/<b>shop</b>",
		StartedAt: "2026-11-29T10:00:00Z", UpdatedAt: "2026-11-29T10:05:00Z", OverallStatus: "blocked",
		CurrentPhase: pipeline.Position{PhaseNumber: 2, PhaseName: "implementer", StepNumber: 2, StepName: "<img src=x onerror=alert(2)>"},
		Phases: []pipeline.Phase{
			{PhaseNumber: 1, PhaseName: "spec-writer", DisplayName: "Specification", Status: "completed",
				Summary:   "<script>alert(1)</script>",
				Artifacts: []pipeline.Artifact{{Path: "<script>alert(1)</script>.md", Type: "spec", SizeBytes: 600, SHA256: "abcdef0123456789", ValidatedAt: "2026-11-29T10:01:00Z"}}},
			{PhaseNumber: 2, PhaseName: "implementer", DisplayName: "Implementation", Status: "blocked",
				Blockers: []pipeline.Blocker{{Message: "implementer: completion-report.md: missing section \"Summary\""}},
				Steps:    []pipeline.Step{{StepNumber: 1, Status: "completed"}, {StepNumber: 2, Status: "in-progress"}}},
			{PhaseNumber: 3, PhaseName: "reviewer", DisplayName: "Review", Status: "pending"},
		},
	}
	b := pipeline.NewBudget(60000, 128000, 0.6)
	r := &pipeline.Report{Budget: &b, BriefPath: "context-briefs/shop/2-implementer-step-2.md",
		Drift:    []pipeline.Drift{{Phase: "spec-writer", Path: "<script>alert(1)</script>.md", Change: "modified", ModifiedAt: "2026-11-29T10:04:00Z"}},
		Warnings: []string{"Drift: <script>alert(1)</script>.md changed"}}
	return st, r
}

func TestRenderEscapes(t *testing.T) {
	page, err := ForPipeline(hostileState())
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, bad := range []string{"<script>", "<img src=x", "<b>shop</b>"} {
		if strings.Contains(html, bad) {
			t.Errorf("page contains raw %q", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "implementer", "blocked", `<span class="mark warn"></span>context pressure`, "missing section", "steps: 1 of 2 done", "modified at 2026-11-29T10:04:00Z"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, external := range []string{"http://", "https://", "src=\"", "<link"} {
		if strings.Contains(html, external) {
			t.Errorf("page refers to an external asset (%q)", external)
		}
	}
}

func TestViewUsesLastBrief(t *testing.T) {
	st, _ := hostileState()
	st.Config.ContextWindow, st.Config.CompressionThreshold = 1000, 0.5
	st.LastBrief = &pipeline.BriefInfo{Path: "b.md", Tokens: 600, Status: pipeline.BudgetOver, Compressed: []string{pipeline.LevelDropOptional}}
	v := ViewOf(st, nil)
	if v.Budget == nil || v.Budget.Status != pipeline.BudgetOver || v.BriefPath != "b.md" || v.Budget.Limit != 500 {
		t.Errorf("budget from the state: %+v", v.Budget)
	}
}

// The page shows every status as a word with a CSS shape: it needs no
// emoji font.
func TestRenderNeedsNoEmojiFont(t *testing.T) {
	st, r := hostileState()
	r.Warnings = append(r.Warnings, "a warning")
	page, err := ForPipeline(st, r)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range string(page) {
		if (c >= 0x2600 && c <= 0x27BF) || c >= 0x1F000 || c == 0xFE0F {
			t.Fatalf("page has the symbol %q at byte %d", c, i)
		}
	}
	for _, want := range []string{`<span class="mark bad"></span><strong>blocked:</strong>`, `<span class="mark warn"></span><strong>warning:</strong> a warning`, `<span class="mark ok"></span>valid, `} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
