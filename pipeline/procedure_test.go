package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A spec-kit spec as the pipeline procedure's examples write it: stories
// wrapped at about 100 columns, a tech stack and key decisions.
const kitSpec = `# Feature Specification: Team notes

**Feature Branch**: ` + "`001-team-notes`" + `
**Created**: 2026-11-02

## User Scenarios & Testing *(mandatory)*

### User Story 1 - Write a note (Priority: P1)

A team member writes a short note in markdown and saves it to the team's shared board, where every
member of the team sees it at once without reloading the page. Notes are kept for a year.

**Acceptance Scenarios**:

1. **Given** an empty board, **When** a member saves a note, **Then** every member sees it.

### User Story 2 - Tag notes (Priority: P2)

A member tags a note with one or more labels so that notes on the same topic can be found
together later, from the board's filter bar or from a link shared in chat. Tags are free text.

**Acceptance Scenarios**:

1. **Given** a note, **When** a member adds the tag "infra", **Then** the filter "infra" lists it.

### User Story 3 - Search notes (Priority: P3)

A member searches the notes of the team by words of their text and by tag.

## Requirements *(mandatory)*

### Functional Requirements

- **FR-001**: The system MUST store notes per team.

## Tech Stack

- Go 1.26, PostgreSQL 16, server-sent events for live updates.

## Key Decisions

- Notes are stored as markdown, rendered on the client.

## Success Criteria *(mandatory)*

- **SC-001**: A saved note is visible to the whole team within 2 seconds.

## Review & Acceptance Checklist

- [ ] No implementation details
`

const kitReport = `# Completion Report: Team notes

## Summary

All three stories are implemented with tests; the board updates live over server-sent events.

## User Stories Implemented

- [X] User Story 1 - Write a note
- [X] User Story 2 - Tag notes

## Files Modified

- ` + "`internal/notes/store.go`" + `
- ` + "`internal/notes/board.go`" + `

## Test Results

42 tests pass, coverage 81%.

## Deviations

- Tags are lower-cased.

## Implementation Notes

Tried a websocket first and dropped it.
`

func (f *fixture) brief(name string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.env.Home.Dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func mustContain(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q", what, w)
		}
	}
}

func mustLack(t *testing.T, what, text string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(text, w) {
			t.Errorf("%s holds %q", what, w)
		}
	}
}

// Resume (mode 2) writes a fresh brief for the current phase and step,
// with the current artifacts (drift included), and saves the state.
func TestResumeWritesBrief(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", kitSpec)
	if _, err := f.transition("spec-writer", "implementer", 2); err != nil {
		t.Fatal(err)
	}
	name := "context-briefs/shop/2-implementer-step-2.md"
	os.Remove(filepath.Join(f.env.Home.Dir, name))
	f.write("spec.md", strings.Replace(kitSpec, "Tags are free text.", "Tags are free text, at most 20.", 1))

	r, err := f.env.resume(ProjectRequest{Project: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	f.apply(r)
	if r.BriefPath != name {
		t.Fatalf("brief %q, want %q", r.BriefPath, name)
	}
	var wrote []string
	for _, file := range r.Files {
		wrote = append(wrote, file.Name)
	}
	mustContain(t, "files written", strings.Join(wrote, " "), name, StateName("shop"), DashboardName("shop"))
	b := f.brief(name)
	mustContain(t, "resume brief", b, "**Mode**: resume", "##### User Story 2 - Tag notes", "at most 20", "Drift: spec.md (phase spec-writer) changed")
	st := f.state()
	if st.CurrentPhase.PhaseName != "implementer" || st.CurrentPhase.StepNumber != 2 || st.LastBrief == nil || st.LastBrief.Path != name ||
		st.Phases[1].ContextBriefPath != name {
		t.Fatalf("state after resume: %+v %+v", st.CurrentPhase, st.LastBrief)
	}
	if len(st.Drift) != 1 {
		t.Errorf("drift not recorded: %+v", st.Drift)
	}

	// Without a state, resume reconstructs it and writes the brief too.
	os.Remove(filepath.Join(f.env.Home.Dir, StateName("shop")))
	r, err = f.env.resume(ProjectRequest{Project: "shop", ProjectPath: f.project})
	if err != nil {
		t.Fatal(err)
	}
	if !r.State.Reconstructed || r.BriefPath != "context-briefs/shop/2-implementer-step-1.md" {
		t.Fatalf("reconstructed resume: %v %q", r.State.Reconstructed, r.BriefPath)
	}
}

// The procedure's default sdd include lists.
func TestSDDIncludeLists(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", kitSpec)
	if _, err := f.transition("spec-writer", "implementer", 1); err != nil {
		t.Fatal(err)
	}
	b := f.brief("context-briefs/shop/2-implementer-step-1.md")
	// include: [user_stories, acceptance_criteria, tech_stack, decisions]
	mustContain(t, "implementer brief", b, "User Story 1 - Write a note", "**Acceptance Scenarios**", "Tech Stack", "PostgreSQL 16",
		"Key Decisions", "stored as markdown", "Success Criteria", "SC-001")
	mustLack(t, "implementer brief", b, "FR-001", "Review & Acceptance Checklist", "User Story 2 - Tag notes")

	f.write("completion-report.md", kitReport)
	if _, err := f.transition("implementer", "reviewer", 0); err != nil {
		t.Fatal(err)
	}
	// include: [completion_report, files_modified, test_results]: the whole report.
	b = f.brief("context-briefs/shop/3-reviewer.md")
	mustContain(t, "reviewer brief", b, "### From `completion-report.md`", "All three stories are implemented", "User Stories Implemented",
		"internal/notes/board.go", "42 tests pass", "Tags are lower-cased", "`spec.md` — ")
	mustLack(t, "reviewer brief", b, "Tried a websocket", "PostgreSQL 16")
}

// The implementer's report may be tasks.md; the reviewer's artifact may
// be review-report.html, read as HTML.
func TestProcedureArtifactPaths(t *testing.T) {
	f := newFixture(t, 5)
	f.write("specs/001-team-notes/spec.md", kitSpec)
	f.write("specs/001-team-notes/tasks.md", "# Tasks: Team notes\n\n## Summary\n\nThe board and the tags are done; search is next.\n\n"+
		"## Phase 1: Setup\n\n- [X] T001 Create the notes package\n- [X] T002 Board handler\n- [X] T003 Tag filter\n- [ ] T004 Search\n")
	if _, err := f.transition("spec-writer", "implementer", 1); err != nil {
		t.Fatal(err)
	}
	r, err := f.transition("implementer", "reviewer", 0)
	if err != nil {
		t.Fatal(err)
	}
	if p := f.state().Phases[1].Artifacts[0].Path; p != "specs/001-team-notes/tasks.md" {
		t.Fatalf("implementer artifact %q", p)
	}
	mustContain(t, "reviewer brief", string(r.Files[0].Data), "T002 Board handler")

	page := `<!DOCTYPE html><html><head><title>Review</title><style>.verdict{color:red}</style></head><body>
<h1>Review: Team notes</h1>
<section><h2>Summary</h2><p>The board works; tags &amp; search meet FR-001.</p></section>
<section><h2>Findings</h2><ul><li>Tags are lower-cased (documented).</li><li>No load test.</li></ul></section>
<section class="verdict"><h2>Verdict</h2><p><strong>Approved</strong> with one follow-up.</p></section>
</body></html>`
	rule := reviewRule
	if problems, _, _ := ValidateFile(rule, "review-report.html", []byte(page)); len(problems) > 0 {
		t.Fatalf("valid review report: %v", problems)
	}
	// The words must be in the page's text: not in tags, attributes, styles
	// or scripts.
	hidden := `<html><head><style>.verdict{}</style><script>var findings = 1;</script></head><body class="summary">
<h1>Review</h1><p>` + strings.Repeat("Looks fine to me overall. ", 10) + `</p></body></html>`
	problems, missing, _ := ValidateFile(rule, "review-report.html", []byte(hidden))
	if len(missing) != 3 || !strings.Contains(strings.Join(problems, ";"), `missing text "Verdict"`) {
		t.Fatalf("hidden words counted: %v", problems)
	}
	if problems, _, _ := ValidateFile(rule, "review-report.html", []byte(strings.Repeat("Summary, findings, verdict: approved. ", 10))); !strings.Contains(strings.Join(problems, ";"), "not an HTML page") {
		t.Errorf("plain text passed as HTML: %v", problems)
	}

	f.write("review-report.html", hidden)
	_, err = f.transition("reviewer", Done, 0)
	if !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), `review-report.html: missing text "Findings" or "Issues" or "Observations"`) {
		t.Fatalf("blocked review: %v", err)
	}
	f.write("review-report.html", page)
	// The rework brief picks the HTML report's sections like markdown ones.
	r, err = f.env.transition(TransitionRequest{Project: "shop", Pipeline: "sdd", From: "reviewer", To: "implementer"})
	if err != nil {
		t.Fatal(err)
	}
	b := string(r.Files[0].Data)
	mustContain(t, "rework brief", b, "#### Findings", "- No load test.", "tags & search meet FR-001", "Approved")
	mustLack(t, "rework brief", b, "<h2>", "color:red")
}

// The brief follows the procedure's template: title, header lines, budget
// with use and rest, budget pressure under Warnings, the dashboard under
// References; earlier stories summarised by their whole first sentence.
func TestBriefTemplate(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", kitSpec)
	r, err := f.transition("spec-writer", "implementer", 3)
	if err != nil {
		t.Fatal(err)
	}
	b := f.brief(r.BriefPath)
	for _, re := range []string{
		`(?m)\A# Context Brief: spec-writer → implementer \(step 3 of 3\)\n`,
		`(?m)^\*\*Pipeline\*\*: sdd \| \*\*Project\*\*: shop$`,
		`(?m)^\*\*Pipeline ID\*\*: ` + "`" + `[0-9a-f-]{36}` + "`$",
		`(?m)^\*\*Transition\*\*: spec-writer → implementer$`,
		`(?m)^\*\*Mode\*\*: transition$`,
		`(?m)^\*\*Generated\*\*: 2026-11-29T\d\d:\d\d:\d\dZ$`,
		`(?m)^- \*\*Estimated tokens\*\*: \d+$`,
		`(?m)^- \*\*Target window\*\*: 128000 tokens × 0.6 compression threshold = 76800-token budget$`,
		`(?m)^- \*\*Budget used\*\*: \d+\.\d%$`,
		`(?m)^- \*\*Budget remaining\*\*: \d+ tokens$`,
		`(?m)^- \*\*Status\*\*: ✅ within budget$`,
		`(?m)^- \*\*Dashboard\*\*: .*dashboard-shop\.html$`,
		// whole first sentences, though wrapped over two lines in the spec
		`(?m)^- ✓ User Story 1 - Write a note \(Priority: P1\): A team member writes a short note in markdown and saves it to the team's shared board, where every member of the team sees it at once without reloading the page\.$`,
		`(?m)^- ✓ User Story 2 - Tag notes \(Priority: P2\): A member tags a note with one or more labels so that notes on the same topic can be found together later, from the board's filter bar or from a link shared in chat\.$`,
	} {
		if !regexp.MustCompile(re).MatchString(b) {
			t.Errorf("brief does not match %s", re)
		}
	}
	if r.Budget.Remaining != r.Budget.Limit-r.Budget.Tokens || r.Budget.UsedPercent <= 0 {
		t.Errorf("budget: %+v", r.Budget)
	}

	// Budget pressure (⚠️) is listed under Warnings.
	f.env.Config.Settings.ContextWindow = r.Budget.Tokens * 100 / 48 // ~80 % of a 0.6 budget
	r, err = f.transition("spec-writer", "implementer", 3)
	if err != nil {
		t.Fatal(err)
	}
	b = f.brief(r.BriefPath)
	if r.Budget.Status != BudgetPressure {
		t.Fatalf("status %s, want ⚠️ (%+v)", r.Budget.Status, r.Budget)
	}
	_, warnings, _ := strings.Cut(b, "## Warnings & Known Issues")
	mustContain(t, "Warnings", warnings, "- ⚠️ Context pressure: this brief uses")
}

// A 🔴 brief ends within its budget and still carries the current step's
// story, even when the story alone and the accumulated state are large.
func TestOverBudgetBriefFits(t *testing.T) {
	f := newFixture(t, 5)
	long := strings.Repeat("The member sees every note of the team, in the order they were written, with its author. ", 120)
	spec := strings.Replace(kitSpec, "A member searches the notes of the team by words of their text and by tag.",
		"A member searches the notes of the team by words of their text and by tag.\n\n"+long, 1)
	f.write("spec.md", spec)
	f.env.Config.Settings.ContextWindow = 2500
	r, err := f.transition("spec-writer", "implementer", 3)
	if err != nil {
		t.Fatal(err)
	}
	b := f.brief(r.BriefPath)
	if r.Budget.Status != BudgetOver || EstimateTokens(b) > r.Budget.Limit || r.Budget.Tokens != EstimateTokens(b) {
		t.Fatalf("🔴 brief: %d tokens for a %d budget (%+v)", EstimateTokens(b), r.Budget.Limit, r.Budget)
	}
	_, ctx, _ := strings.Cut(b, "## Curated Context")
	ctx, _, _ = strings.Cut(ctx, "## Accumulated State")
	mustContain(t, "Curated Context", ctx, "User Story 3 - Search notes", "A member searches the notes of the team")
	_, warnings, _ := strings.Cut(b, "## Warnings & Known Issues")
	mustContain(t, "Warnings", warnings, "- 🔴 Over budget: the brief was about")
}

// The state's schema: null where nothing is set yet, artifacts_created as
// {path, phase, timestamp} objects (plain paths read too), a summary for
// every completed phase.
func TestStateSchema(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", kitSpec)
	if _, err := f.transition("spec-writer", "implementer", 0); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(f.env.Home.Dir, StateName("shop")))
	for _, re := range []string{
		`"reconstruction_confidence": null`,
		`"phase_name": "reviewer",[^}]*"started_at": null,\s*"completed_at": null,`,
		`"phase_name": "implementer",[^}]*"completed_at": null,`,
		`"artifacts_created": \[\s*\{\s*"path": "spec.md",\s*"phase": "spec-writer",\s*"timestamp": "2026-11-29T10:\d\d:00Z"\s*\}\s*\]`,
		// no Summary section: the spec's first paragraph of prose, whole
		`"summary": "A team member writes a short note in markdown and saves it to the team's shared board, where every member of the team sees it at once without reloading the page. Notes are kept for a year."`,
	} {
		if !regexp.MustCompile(re).Match(raw) {
			t.Errorf("state does not match %s", re)
		}
	}
	st := f.state()
	st.CurrentPhase.StepNumber, st.CurrentPhase.StepName = 0, ""
	out, _ := st.MarshalJSON()
	mustContain(t, "state", string(out), `"step_number":null`, `"step_name":null`)
	st.Reconstructed, st.ReconstructionConfidence = true, 0.8
	out, _ = st.MarshalJSON()
	mustContain(t, "reconstructed state", string(out), `"reconstruction_confidence":0.8`)

	old, err := ParseState([]byte(`{"pipeline_type": "sdd", "phases": [{"phase_name": "spec-writer", "completed_at": null}],
		"accumulated_context": {"artifacts_created": ["spec.md", {"path": "tasks.md", "phase": "implementer", "timestamp": "t", "size": 3}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := old.AccumulatedContext.ArtifactsCreated
	if len(a) != 2 || a[0].Path != "spec.md" || a[1].Phase != "implementer" || string(a[1].Extra["size"]) != "3" {
		t.Fatalf("old artifacts_created: %+v", a)
	}
}

// "~" is the user's home folder; a project under it is stored as "~/…".
func TestHomePaths(t *testing.T) {
	home := filepath.FromSlash("/home/ana")
	for _, tt := range []struct{ in, want, stored string }{
		{"~", home, "~"},
		{"~/src/shop", filepath.Join(home, "src", "shop"), "~/src/shop"},
		{filepath.FromSlash("/srv/shop"), filepath.FromSlash("/srv/shop"), filepath.FromSlash("/srv/shop")},
		{filepath.FromSlash("/home/anabel/shop"), filepath.FromSlash("/home/anabel/shop"), filepath.FromSlash("/home/anabel/shop")},
		{"~ana/x", "~ana/x", "~ana/x"},
	} {
		got, err := ExpandHome(tt.in, home)
		if err != nil || got != tt.want {
			t.Errorf("ExpandHome(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if filepath.IsAbs(got) {
			if s := PortablePath(got, home); s != tt.stored {
				t.Errorf("PortablePath(%q) = %q, want %q", got, s, tt.stored)
			}
		}
	}
	if _, err := ExpandHome("~/x", ""); err == nil {
		t.Error("~ expanded without a home folder")
	}

	// Stored as ~/…, read back expanded.
	f := newFixture(t, 5)
	f.env.UserHome = filepath.Dir(f.project)
	f.write("spec.md", kitSpec)
	if _, err := f.transition("spec-writer", "implementer", 0); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(f.env.Home.Dir, StateName("shop")))
	mustContain(t, "state file", string(raw), `"project_path": "~/proj"`)
	s, err := f.env.status(ProjectRequest{Project: "shop"})
	if err != nil || s.State.ProjectPath != f.project {
		t.Fatalf("read back: %q, %v", s.State.ProjectPath, err)
	}
}

// Hold stops handoffs until Continue; a skipped phase is passed over.
func TestHoldAndSkip(t *testing.T) {
	f := newFixture(t, 5)
	f.write("spec.md", kitSpec)
	if _, err := f.transition("spec-writer", "implementer", 0); err != nil {
		t.Fatal(err)
	}
	r, err := f.env.hold(ProjectRequest{Project: "shop"}, "waiting for design")
	if err != nil {
		t.Fatal(err)
	}
	f.apply(r)
	if st := f.state(); st.OverallStatus != OverallOnHold || st.Hold == nil || st.Hold.Reason != "waiting for design" {
		t.Fatalf("hold: %s %+v", st.OverallStatus, st.Hold)
	}
	if _, err := f.transition("spec-writer", "implementer", 2); !errors.Is(err, ErrOnHold) {
		t.Fatalf("handoff on hold: %v", err)
	}
	r, err = f.env.unhold(ProjectRequest{Project: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	f.apply(r)
	r, err = f.env.skip(ProjectRequest{Project: "shop"}, "implementer", "")
	if err != nil {
		t.Fatal(err)
	}
	f.apply(r)
	st := f.state()
	if st.OverallStatus != OverallInProgress || st.Phases[1].Status != StatusSkipped || st.Phases[1].Summary != "Skipped." ||
		st.CurrentPhase.PhaseName != "reviewer" || st.Phases[2].Status != StatusInProgress {
		t.Fatalf("skip: %s %+v %+v", st.OverallStatus, st.CurrentPhase, st.Phases[1])
	}
	// spec-writer → reviewer passes over the skipped implementer.
	r, err = f.transition("spec-writer", "reviewer", 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.BriefPath != "context-briefs/shop/3-reviewer.md" {
		t.Fatalf("brief %q", r.BriefPath)
	}
	if _, err := f.transition("spec-writer", "reviewer", 0); err != nil {
		t.Fatal(err)
	}
	// Without the skip, there is no such handoff.
	g := newFixture(t, 5)
	g.write("spec.md", kitSpec)
	if _, err := g.transition("spec-writer", "reviewer", 0); !errors.Is(err, ErrUnknown) {
		t.Fatalf("spec-writer → reviewer without a skip: %v", err)
	}
}

// A full handoff over budget, with long accumulated lists, still ends
// within the budget and carries the beginning of the curated sections.
func TestOverBudgetFullHandoffFits(t *testing.T) {
	f := newFixture(t, 5)
	var decisions, files strings.Builder
	for i := 0; i < 150; i++ {
		decisions.WriteString("- Decision " + strings.Repeat("x", i%7+1) + " number " + string(rune('a'+i%26)) + " on the board cache and its invalidation.\n")
		files.WriteString("- `internal/notes/file" + strings.Repeat("y", i%5+1) + string(rune('a'+i%26)) + ".go`\n")
	}
	report := strings.Replace(kitReport, "## Test Results", "## Key Decisions\n\n"+decisions.String()+"\n## Test Results", 1)
	report = strings.Replace(report, "- `internal/notes/store.go`\n", files.String(), 1)
	f.write("spec.md", kitSpec)
	f.write("completion-report.md", report)
	if _, err := f.transition("spec-writer", "implementer", 1); err != nil {
		t.Fatal(err)
	}
	cut := false
	for _, window := range []int{1100, 1300, 1600, 2000, 3000} {
		f.env.Config.Settings.ContextWindow = window
		r, err := f.env.transition(TransitionRequest{Project: "shop", Pipeline: "sdd", From: "implementer", To: "reviewer",
			SkipRemaining: "only the first story is built here"})
		if err != nil {
			t.Fatal(err)
		}
		b := string(r.Files[0].Data)
		if r.Budget.Status != BudgetOver || EstimateTokens(b) > r.Budget.Limit {
			t.Fatalf("window %d: 🔴 brief: %d tokens for a %d budget (%+v)\n%s", window, EstimateTokens(b), r.Budget.Limit, r.Budget, b)
		}
		_, ctx, _ := strings.Cut(b, "## Curated Context")
		ctx, _, _ = strings.Cut(ctx, "## Accumulated State")
		mustContain(t, fmt.Sprintf("window %d: Curated Context", window), ctx, "### From `completion-report.md`", "Completion Report: Team notes")
		if c := r.Budget.Compressed; c[len(c)-1] == LevelCut {
			cut = true
		}
	}
	if !cut {
		t.Error("no window needed the cut that makes a brief fit")
	}
}
