package pipeline

import (
	"strings"
	"testing"
)

const validSpec = `# Feature: shop

## User Stories

### User Story 1 - Browse

As a shopper I want to browse the catalogue.

### User Story 2 - Pay

As a shopper I want to pay.

## Functional Requirements

- FR-001: list products.

## Success Criteria

- SC-001: pay in two minutes.
`

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + "\n" + strings.Repeat("Padding text for the minimum size. ", (n-len(s))/35+1) + "\n"
}

func TestValidateSpec(t *testing.T) {
	fence := "```"
	tests := []struct {
		name    string
		doc     string
		missing []string // substrings of the missing sections, in order
		problem string   // another expected problem
	}{
		{name: "valid", doc: pad(validSpec, 600)},
		{name: "alternatives: scenarios, requirements, acceptance", doc: pad("# S\n## User Scenarios & Testing *(mandatory)*\n## Requirements *(mandatory)*\n### Acceptance Criteria\n", 600)},
		{name: "case-insensitive, any level", doc: pad("###### user STORIES\n# functional requirements\n#### SUCCESS criteria\n", 600)},
		{name: "setext headings", doc: pad("User Stories\n============\n\nFunctional Requirements\n-----------------------\n\nSuccess Criteria\n----------------\n", 600)},
		{name: "every missing section is reported", doc: pad("# Nothing here\n", 600),
			missing: []string{"User Stories", "Functional Requirements", "Success Criteria"}},
		{name: "one missing", doc: pad("## User Stories\n## Requirements\n", 600), missing: []string{"Success Criteria"}},
		{name: "headings in a code fence do not count", doc: pad("## User Stories\n"+fence+"markdown\n## Functional Requirements\n## Success Criteria\n"+fence+"\n", 600),
			missing: []string{"Functional Requirements", "Success Criteria"}},
		{name: "headings in an indented code block do not count", doc: pad("## User Stories\n## Requirements\n\n    ## Success Criteria\n", 600),
			missing: []string{"Success Criteria"}},
		{name: "text that is not a heading does not count", doc: pad("## User Stories\n## Requirements\nSee the Success Criteria below.\n", 600),
			missing: []string{"Success Criteria"}},
		{name: "too small", doc: validSpec, problem: "at least 500"},
		{name: "empty", doc: "", problem: "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems, missing, _ := ValidateData(specRule, []byte(tt.doc))
			if len(missing) != len(tt.missing) {
				t.Fatalf("missing = %q, want %d sections %q", missing, len(tt.missing), tt.missing)
			}
			for i, m := range tt.missing {
				if !strings.Contains(missing[i], m) {
					t.Errorf("missing[%d] = %q, want it to name %q", i, missing[i], m)
				}
			}
			if tt.problem == "" && len(problems) != len(missing) {
				t.Errorf("problems = %q", problems)
			}
			if tt.problem != "" && !strings.Contains(strings.Join(problems, ";"), tt.problem) {
				t.Errorf("problems = %q, want %q", problems, tt.problem)
			}
		})
	}
}

func TestValidateCompletionReport(t *testing.T) {
	fence := "```"
	tests := []struct {
		name string
		doc  string
		ok   bool
	}{
		{"summary and stories implemented", pad("## Summary\nDone.\n## User Stories Implemented\n- US1\n", 250), true},
		{"task markers [X] instead of the section", pad("## Summary\nDone.\n## Tasks\n- [X] T001 build\n- [ ] T002 later\n", 250), true},
		{"task marker [✓]", pad("## Summary\nDone.\n\n* [✓] T001 build\n", 250), true},
		{"lower-case [x] in an ordered list", pad("## Summary\nDone.\n\n1. [x] T001 build\n", 250), true},
		{"only open tasks", pad("## Summary\nDone.\n- [ ] T001 build\n", 250), false},
		{"markers inside a code block do not count", pad("## Summary\nDone.\n"+fence+"\n- [X] T001\n"+fence+"\n", 250), false},
		{"a marker that is not a list item does not count", pad("## Summary\nDone.\n\n[X] T001 build\n", 250), false},
		{"summary missing", pad("## User Stories Implemented\n- [X] US1\n", 250), false},
		{"too small", "## Summary\nok\n## User Stories Implemented\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems, _, _ := ValidateData(completionRule, []byte(tt.doc))
			if ok := len(problems) == 0; ok != tt.ok {
				t.Errorf("ok = %v, want %v (problems %q)", ok, tt.ok, problems)
			}
		})
	}
}

func TestOutlineSections(t *testing.T) {
	src := "intro\n# A\na\n## B\nb\n### C\nc\n## D\nd\n# E\n"
	o := ParseOutline([]byte(src))
	if string(o.Preamble) != "intro\n" || len(o.Sections) != 2 || len(o.All) != 5 {
		t.Fatalf("preamble %q, %d top sections, %d in all", o.Preamble, len(o.Sections), len(o.All))
	}
	a := o.Sections[0]
	if got := o.Text(a); got != "# A\na\n## B\nb\n### C\nc\n## D\nd\n" {
		t.Errorf("text of A = %q", got)
	}
	if got := o.Own(a); got != "# A\na\n" {
		t.Errorf("own of A = %q", got)
	}
	if len(a.Children) != 2 || a.Children[0].Title != "B" || len(a.Children[0].Children) != 1 {
		t.Errorf("children of A: %+v", a.Children)
	}
	if got := o.Body(a.Children[0]); got != "b\n### C\nc\n" {
		t.Errorf("body of B = %q", got)
	}
}

func TestMatches(t *testing.T) {
	for _, tt := range []struct {
		heading, name string
		want          bool
	}{
		{"User Scenarios & Testing *(mandatory)*", "User Scenarios", true},
		{"Functional Requirements", "Requirements", true},
		{"Requirements", "Functional Requirements", false},
		{"Storytelling", "Story", false},
		{"SUCCESS-CRITERIA", "success criteria", true},
	} {
		if got := matches(tt.heading, tt.name); got != tt.want {
			t.Errorf("matches(%q, %q) = %v", tt.heading, tt.name, got)
		}
	}
}

// tasks.md is a task list (spec-kit): valid with a finished task, no
// sections asked; its open tasks are named.
func TestValidateTaskList(t *testing.T) {
	head := "# Tasks: Shop\n\n**Input**: Design documents from `/specs/001-shop/`\n\n## Phase 1: Setup\n\n"
	tests := []struct {
		name       string
		doc        string
		problem    string // "" when valid
		done, open int
		openTasks  string
	}{
		{name: "all done, upper- and lower-case x", doc: head + "- [X] T001 Packages\n- [x] T002 [P] Lint\n", done: 2},
		{name: "open tasks are named by id", doc: head + "- [X] T001 Packages\n- [ ] T002 [P] Lint\n  - [ ] T002a Config\n", done: 1, open: 2, openTasks: "T002, T002a"},
		{name: "an open task without id by its first words", doc: head + "- [✓] Packages\n- [ ] Write the documentation for the whole shop, every page\n", done: 1, open: 1,
			openTasks: "Write the documentation for the whole sh…"},
		{name: "nothing done is the plan, not a report", doc: head + "- [ ] T001 Packages\n- [ ] T002 Lint\n", problem: "0 of 2 tasks done", open: 2, openTasks: "T001, T002"},
		{name: "no tasks", doc: head + "- **[P]**: can run in parallel\n- [P] tasks = different files\n", problem: "no tasks"},
		{name: "tasks in a code block do not count", doc: head + "```\n- [X] T001 Packages\n```\n", problem: "no tasks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems, missing, o := ValidateFile(completionRule, "specs/001-shop/tasks.md", []byte(pad(tt.doc, 250)))
			if len(missing) > 0 {
				t.Fatalf("sections asked of a task list: %v", missing)
			}
			if got := strings.Join(problems, "; "); (tt.problem == "") != (got == "") || !strings.Contains(got, tt.problem) {
				t.Fatalf("problems %q, want %q", got, tt.problem)
			}
			if o.Done != tt.done || o.Open != tt.open || strings.Join(o.OpenTasks, ", ") != tt.openTasks {
				t.Fatalf("done %d open %d %v, want %d %d %s", o.Done, o.Open, o.OpenTasks, tt.done, tt.open, tt.openTasks)
			}
		})
	}
	// completion-report.md is still a report with a Summary.
	if problems, _, _ := ValidateFile(completionRule, "completion-report.md", []byte(pad(head+"- [X] T001 Packages\n", 250))); len(problems) != 1 ||
		!strings.Contains(problems[0], `"Summary"`) {
		t.Fatalf("completion-report.md without Summary: %v", problems)
	}
}
