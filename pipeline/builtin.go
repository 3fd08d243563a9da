package pipeline

// Built-in pipelines. The procedure's sdd rules (SPEC §3.5) are kept as they
// are; ui-lifecycle, debug and full-product are curator's own, documented
// in README.md.

// reasoningHeadings are never handed to the next agent: the brief carries
// results, not reasoning traces.
var reasoningHeadings = []string{"reasoning", "thinking", "thought process", "chain of thought", "scratchpad", "internal notes"}

func paths(name string) []string {
	return []string{name, "specs/*/" + name, "docs/" + name}
}

var specRule = ArtifactRule{
	Type: "spec", Paths: paths("spec.md"), MinBytes: 500,
	Sections: []SectionRule{
		{AnyOf: []string{"User Stories", "User Scenarios"}},
		{AnyOf: []string{"Functional Requirements", "Requirements"}},
		{AnyOf: []string{"Success Criteria", "Acceptance Criteria"}},
	},
}

// The implementer's report is completion-report.md or, as spec-kit writes
// it, tasks.md (the first found wins). tasks.md is a task list: its
// finished tasks are the report, no Summary is asked of it.
var completionRule = ArtifactRule{
	Type: "completion-report", Paths: append(paths("completion-report.md"), paths("tasks.md")...), MinBytes: 200,
	TaskLists: []string{"tasks.md"},
	Sections: []SectionRule{
		{AnyOf: []string{"Summary"}},
		{AnyOf: []string{"User Stories Implemented"}, OrTaskMarkers: true},
	},
}

// The reviewer's artifact is review.md (markdown sections) or
// review-report.html (read as HTML: required texts in the page's visible
// text, what every review report holds — a summary, findings and a
// verdict).
var reviewRule = ArtifactRule{
	Type: "review", Paths: append(paths("review.md"), paths("review-report.html")...), MinBytes: 200,
	Sections: []SectionRule{
		{AnyOf: []string{"Summary"}},
		{AnyOf: []string{"Verdict", "Decision"}},
	},
	Patterns: []PatternRule{
		{AnyOf: []string{"Summary", "Overview"}},
		{AnyOf: []string{"Findings", "Issues", "Observations"}},
		{AnyOf: []string{"Verdict", "Decision", "Approved", "Changes Requested", "Rejected"}},
	},
}

var specWriter = PhaseDef{
	Name: "spec-writer", DisplayName: "Specification",
	Mission:   "Write spec.md: prioritised user stories with acceptance scenarios, functional requirements and measurable success criteria.",
	Artifacts: []ArtifactRule{specRule},
}

var implementer = PhaseDef{
	Name: "implementer", DisplayName: "Implementation", Steps: ChunkByUserStory,
	Mission: "Implement the current user story against the spec, with tests. Record finished tasks as [X], " +
		"files modified, key decisions, test results and deviations in completion-report.md (or tasks.md).",
	Artifacts: []ArtifactRule{completionRule},
}

var reviewer = PhaseDef{
	Name: "reviewer", DisplayName: "Review",
	Mission: "Review the implementation against the spec's functional requirements and success criteria (the spec is listed under References); " +
		"write review.md (or review-report.html) with a Summary, Findings and a Verdict.",
	Artifacts: []ArtifactRule{reviewRule},
}

var specExclude = []string{"Review Checklist", "Review & Acceptance Checklist", "Execution Flow", "Clarifications", "Open Questions", "Research Notes", "Alternatives Considered"}
var specOptional = []string{"Assumptions", "Edge Cases", "Key Entities", "Out of Scope", "Dependencies"}

// The procedure's include lists. spec-writer → implementer: user stories,
// acceptance criteria, tech stack, decisions (chunked by user story).
var toImplementerInclude = []string{"User Stories", "User Scenarios", "Acceptance Criteria", "Success Criteria",
	"Tech Stack", "Technology Stack", "Technical Stack", "Technical Context", "Technologies", "Decisions"}

// implementer → reviewer: the completion report (the whole artifact: an
// include entry that names an artifact type keeps all of it), files
// modified, test results.
var toReviewer = TransitionRule{
	From: "implementer", To: "reviewer", Chunking: ChunkFull, Sources: []string{"completion-report", "spec"},
	Include: []string{"completion_report", "Files Modified", "Files Changed", "Test Results"},
	Exclude: append([]string{"Implementation Notes", "Debug Log"}, specExclude...),
}

var rework = TransitionRule{
	From: "reviewer", To: "implementer", Chunking: ChunkFull,
	Include:  []string{"Summary", "Findings", "Issues", "Required Changes", "Verdict", "Functional Requirements", "Success Criteria", "Acceptance Criteria"},
	Exclude:  specExclude,
	Optional: []string{"Success Criteria", "Acceptance Criteria"},
}

// The ui-lifecycle pipeline starts with user research and information
// architecture, as the pipeline procedure's default rule does.
var uxResearch = PhaseDef{
	Name: "ux-research", DisplayName: "UX research",
	Mission: "Research the users: write ux-research.md with a research summary, personas and the key insights.",
	Artifacts: []ArtifactRule{{Type: "ux-research", Paths: append(paths("ux-research.md"), paths("user-research.md")...), MinBytes: 300,
		Sections: []SectionRule{
			{AnyOf: []string{"Research Summary", "Summary"}},
			{AnyOf: []string{"Personas", "User Personas", "Users"}},
			{AnyOf: []string{"Key Insights", "Insights", "Findings"}},
		}}},
}

var infoArch = PhaseDef{
	Name: "info-arch", DisplayName: "Information architecture",
	Mission: "Structure the product from the research: write information-architecture.md with the sitemap (or navigation) and the user flows or content model.",
	Artifacts: []ArtifactRule{{Type: "info-arch", Paths: append(paths("information-architecture.md"), paths("info-arch.md")...), MinBytes: 300,
		Sections: []SectionRule{
			{AnyOf: []string{"Sitemap", "Site Map", "Navigation", "Structure", "Hierarchy"}},
			{AnyOf: []string{"User Flows", "Flows", "Content", "Taxonomy", "Labeling"}},
		}}},
}

// Builtin returns fresh copies of the built-in pipelines.
func Builtin() map[string]*Pipeline {
	return map[string]*Pipeline{
		"sdd": {
			Name:        "sdd",
			Description: "spec-driven development: spec-writer → implementer (one user story per step) → reviewer",
			Phases:      []PhaseDef{specWriter, implementer, reviewer},
			Transitions: []TransitionRule{
				{From: "spec-writer", To: "implementer", Chunking: ChunkByUserStory, Sources: []string{"spec"},
					Include: toImplementerInclude, Exclude: specExclude, Optional: specOptional},
				toReviewer,
				rework,
			},
		},
		"ui-lifecycle": {
			Name:        "ui-lifecycle",
			Description: "ux-research → info-arch → spec-writer → ui-designer → implementer (one user story per step) → ui-reviewer",
			Phases: []PhaseDef{uxResearch, infoArch, specWriter,
				{Name: "ui-designer", DisplayName: "UI design",
					Mission: "Design the screens and components for the spec's user stories; write ui-design.md with screens, user flows and accessibility notes.",
					Artifacts: []ArtifactRule{{Type: "ui-design", Paths: paths("ui-design.md"), MinBytes: 300, Sections: []SectionRule{
						{AnyOf: []string{"Screens", "Components", "Layout"}},
						{AnyOf: []string{"User Flows", "Interactions"}},
						{AnyOf: []string{"Accessibility"}},
					}}}},
				implementer,
				{Name: "ui-reviewer", DisplayName: "UI review",
					Mission: "Review the built UI against the design and the success criteria (visual, usability, accessibility); write ui-review.md.",
					Artifacts: []ArtifactRule{{Type: "ui-review", Paths: paths("ui-review.md"), MinBytes: 200, Sections: []SectionRule{
						{AnyOf: []string{"Summary"}},
						{AnyOf: []string{"Accessibility", "Usability", "Visual", "Findings"}},
					}}}},
			},
			Transitions: []TransitionRule{
				// The procedure's rule: ux-research → info-arch, include
				// [research_summary, personas, key_insights], chunking full.
				{From: "ux-research", To: "info-arch", Chunking: ChunkFull, Sources: []string{"ux-research"},
					Include: []string{"Research Summary", "Summary", "Personas", "Key Insights", "Insights"}},
				{From: "info-arch", To: "spec-writer", Chunking: ChunkFull, Sources: []string{"ux-research", "info-arch"},
					Include: []string{"Research Summary", "Summary", "Personas", "Key Insights", "Insights",
						"Sitemap", "Site Map", "Navigation", "Structure", "Hierarchy", "User Flows", "Flows", "Content", "Taxonomy", "Labeling"}},
				{From: "spec-writer", To: "ui-designer", Chunking: ChunkFull, Sources: []string{"spec", "info-arch"},
					Include: []string{"User Stories", "User Scenarios", "Functional Requirements", "Requirements", "Success Criteria", "Acceptance Criteria", "Key Entities"},
					Exclude: specExclude, Optional: specOptional},
				{From: "ui-designer", To: "implementer", Chunking: ChunkByUserStory, Sources: []string{"spec", "ui-design"},
					Exclude: specExclude, Optional: specOptional},
				{From: "implementer", To: "ui-reviewer", Chunking: ChunkFull, Sources: []string{"spec", "ui-design", "completion-report"},
					Include: append([]string{"Screens", "Components", "User Flows", "Accessibility", "Functional Requirements",
						"Success Criteria", "Acceptance Criteria"}, toReviewer.Include...),
					Exclude: toReviewer.Exclude, Optional: toReviewer.Optional},
				{From: "ui-reviewer", To: "implementer", Chunking: ChunkFull, Sources: []string{"ui-review", "ui-design"},
					Include: append([]string{"Accessibility", "Usability", "Visual", "Screens", "Components"}, rework.Include...)},
			},
		},
		"debug": {
			Name:        "debug",
			Description: "reproducer → fixer → verifier",
			Phases: []PhaseDef{
				{Name: "reproducer", DisplayName: "Reproduction",
					Mission: "Reproduce the bug; write bug-report.md with steps to reproduce, expected and actual behaviour.",
					Artifacts: []ArtifactRule{{Type: "bug-report", Paths: paths("bug-report.md"), MinBytes: 200, Sections: []SectionRule{
						{AnyOf: []string{"Steps to Reproduce", "Reproduction"}},
						{AnyOf: []string{"Expected Behavior", "Expected Behaviour", "Expected"}},
						{AnyOf: []string{"Actual Behavior", "Actual Behaviour", "Actual"}},
					}}}},
				{Name: "fixer", DisplayName: "Fix",
					Mission: "Find the root cause and fix it with a regression test; write fix-report.md with the root cause and the changes.",
					Artifacts: []ArtifactRule{{Type: "fix-report", Paths: paths("fix-report.md"), MinBytes: 200, Sections: []SectionRule{
						{AnyOf: []string{"Root Cause"}},
						{AnyOf: []string{"Fix", "Changes", "Files Modified"}},
					}}}},
				{Name: "verifier", DisplayName: "Verification",
					Mission: "Verify the fix against the reproduction steps and the regression tests; write verification.md.",
					Artifacts: []ArtifactRule{{Type: "verification", Paths: paths("verification.md"), MinBytes: 100, Sections: []SectionRule{
						{AnyOf: []string{"Summary", "Result", "Verdict"}},
						{AnyOf: []string{"Regression", "Tests", "Test Results"}},
					}}}},
			},
			Transitions: []TransitionRule{
				{From: "reproducer", To: "fixer", Chunking: ChunkFull, Sources: []string{"bug-report"}},
				{From: "fixer", To: "verifier", Chunking: ChunkFull, Sources: []string{"bug-report", "fix-report"},
					Include: []string{"Steps to Reproduce", "Reproduction", "Expected", "Actual", "Root Cause", "Fix", "Changes", "Files Modified", "Test Results"}},
				{From: "verifier", To: "fixer", Chunking: ChunkFull, Sources: []string{"verification", "bug-report"}},
			},
		},
		"full-product": {
			Name:        "full-product",
			Description: "product-manager → architect → spec-writer → implementer (one user story per step) → reviewer",
			Phases: []PhaseDef{
				{Name: "product-manager", DisplayName: "Product definition",
					Mission: "Define the product; write prd.md with the vision, the target users and the features.",
					Artifacts: []ArtifactRule{{Type: "prd", Paths: paths("prd.md"), MinBytes: 500, Sections: []SectionRule{
						{AnyOf: []string{"Vision", "Goals", "Problem"}},
						{AnyOf: []string{"Users", "Personas", "Target Users"}},
						{AnyOf: []string{"Features", "Requirements"}},
					}}}},
				{Name: "architect", DisplayName: "Architecture",
					Mission: "Design the system; write architecture.md with its components and the key decisions.",
					Artifacts: []ArtifactRule{{Type: "architecture", Paths: paths("architecture.md"), MinBytes: 500, Sections: []SectionRule{
						{AnyOf: []string{"Architecture", "Components", "System Design"}},
						{AnyOf: []string{"Decisions", "Key Decisions", "ADR"}},
					}}}},
				specWriter, implementer, reviewer,
			},
			Transitions: []TransitionRule{
				{From: "product-manager", To: "architect", Chunking: ChunkFull, Sources: []string{"prd"}},
				{From: "architect", To: "spec-writer", Chunking: ChunkFull, Sources: []string{"prd", "architecture"},
					Optional: []string{"Personas", "Alternatives"}},
				{From: "spec-writer", To: "implementer", Chunking: ChunkByUserStory, Sources: []string{"spec", "architecture"},
					Exclude: specExclude, Optional: append([]string{"Alternatives"}, specOptional...)},
				toReviewer,
				rework,
			},
		},
	}
}
