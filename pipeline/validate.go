package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Check is the validation of one artifact.
type Check struct {
	Type string `json:"type"`
	// Path is relative to the project folder ("" when no file was found).
	Path     string   `json:"path"`
	OK       bool     `json:"ok"`
	Optional bool     `json:"optional,omitempty"`
	Problems []string `json:"problems,omitempty"`
	// Missing names each required section that is absent.
	Missing []string `json:"missing_sections,omitempty"`
	// Tasks counts the tasks of a task list (nil for other artifacts).
	Tasks *TaskCount `json:"tasks,omitempty"`
	// Warnings are what does not block but the next agent should know: a
	// task list's unfinished tasks.
	Warnings []string `json:"warnings,omitempty"`
	Record   Artifact `json:"-"`
	// LookedFor is the rule's candidate paths, when no file was found.
	LookedFor []string `json:"-"`
	outline   *Outline
	data      []byte
}

// TaskCount is how many tasks of a task list are done and how many open.
type TaskCount struct {
	Done int `json:"done"`
	Open int `json:"open"`
}

// Blocking reports whether the check blocks a handoff.
func (c Check) Blocking() bool { return !c.OK && !c.Optional }

// ValidateData checks a markdown artifact's content against its rule and
// returns every problem (not just the first).
func ValidateData(rule ArtifactRule, data []byte) (problems, missing []string, o *Outline) {
	return ValidateFile(rule, "", data)
}

// ValidateFile checks the content of the artifact file name against its
// rule. A markdown file must hold the rule's sections; an HTML file
// (.html, .htm) is read as HTML and must hold the rule's text patterns in
// its visible text (or, when the rule has none, its sections as <h1>…<h6>
// headings).
func ValidateFile(rule ArtifactRule, name string, data []byte) (problems, missing []string, o *Outline) {
	if len(data) == 0 {
		return []string{"file is empty"}, nil, nil
	}
	if int64(len(data)) < rule.MinBytes {
		problems = append(problems, fmt.Sprintf("file has %d bytes, at least %d required", len(data), rule.MinBytes))
	}
	if !utf8.Valid(data) {
		problems = append(problems, "file is not valid UTF-8")
	}
	o = readOutline(name, data)
	if !isHTML(name) && rule.IsTaskList(name) {
		o.TaskList = true
		return append(problems, taskListProblems(o)...), nil, o
	}
	if isHTML(name) {
		if !htmlElement.Match(data) {
			problems = append(problems, "file is not an HTML page (no HTML elements)")
		}
		if len(rule.Patterns) > 0 {
			text := string(o.Source)
			for _, req := range rule.Patterns {
				if containsAny(text, req.AnyOf) {
					continue
				}
				name := `"` + strings.Join(req.AnyOf, `" or "`) + `"`
				missing = append(missing, name)
				problems = append(problems, "missing text "+name)
			}
			return problems, missing, o
		}
	}
	for _, req := range rule.Sections {
		if o.Find(req.AnyOf...) != nil || (req.OrTaskMarkers && o.Done > 0) {
			continue
		}
		name := `"` + strings.Join(req.AnyOf, `" or "`) + `"`
		if req.OrTaskMarkers {
			name += " or task markers [X]/[✓]"
		}
		missing = append(missing, name)
		problems = append(problems, "missing section "+name)
	}
	return problems, missing, o
}

// taskListProblems are what keeps a task list from being an implementer's
// report: no task at all, or no task marked done.
func taskListProblems(o *Outline) []string {
	switch {
	case o.Done+o.Open == 0:
		return []string{"no tasks (list items - [ ] or - [X])"}
	case o.Done == 0:
		return []string{fmt.Sprintf("no task is marked done ([X] or [✓]); 0 of %d tasks done", o.Open)}
	}
	return nil
}

// taskListWarnings name the open tasks of a task list.
func taskListWarnings(name string, o *Outline) []string {
	if o.Open == 0 {
		return nil
	}
	word := "tasks"
	if o.Open == 1 {
		word = "task"
	}
	return []string{fmt.Sprintf("%s: %d %s not done: %s", name, o.Open, word, openTaskNames(o))}
}

// openTaskNames lists the first ten open tasks of a task list, and how many
// more there are.
func openTaskNames(o *Outline) string {
	names := o.OpenTasks
	if len(names) <= 10 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:10], ", ") + fmt.Sprintf(" and %d more", len(names)-10)
}

// ValidatePhase finds and checks every artifact of a phase in the project
// folder. Errors are about unsafe paths or unreadable files; validation
// failures are in the checks.
func ValidatePhase(project string, ph *PhaseDef, now time.Time) ([]Check, error) {
	var out []Check
	for _, rule := range ph.Artifacts {
		c := Check{Type: rule.Type, Optional: rule.Optional}
		rel, err := findArtifact(project, rule)
		if err != nil {
			return nil, err
		}
		if rel == "" {
			c.Problems = []string{fmt.Sprintf("file not found (looked for %s)", strings.Join(rule.Paths, ", "))}
			c.LookedFor = rule.Paths
			out = append(out, c)
			continue
		}
		c.Path = rel
		abs, _, err := ProjectFile(project, rel)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, err
		}
		c.Problems, c.Missing, c.outline = ValidateFile(rule, rel, data)
		c.data = data
		c.OK = len(c.Problems) == 0
		if o := c.outline; o != nil && o.TaskList {
			c.Tasks = &TaskCount{Done: o.Done, Open: o.Open}
			if c.OK {
				c.Warnings = taskListWarnings(rel, o)
			}
		}
		sum := sha256.Sum256(data)
		c.Record = Artifact{Path: rel, Type: rule.Type, SizeBytes: fi.Size(), LastModified: fi.ModTime().UTC().Format(time.RFC3339Nano),
			SHA256: hex.EncodeToString(sum[:])}
		if c.OK {
			c.Record.ValidatedAt = stamp(now)
		}
		out = append(out, c)
	}
	return out, nil
}

// NotFound names the blocking artifacts that were not found in the project
// folder, with the folder and the paths looked for ("" when each was found).
func NotFound(project string, checks []Check) string {
	var out []string
	for _, c := range checks {
		if c.Path == "" && c.Blocking() {
			out = append(out, fmt.Sprintf("no %s in %s (looked for %s)", c.Type, project, strings.Join(c.LookedFor, ", ")))
		}
	}
	return strings.Join(out, "; ")
}

// wrongFolder is the error of a run that finds none of the files it needs
// in the project folder (err names the folder): it records nothing, and
// says how to point curator at the project.
func wrongFolder(err error) error {
	return fmt.Errorf("%w; nothing was recorded: run curator in the project folder or pass --project-path DIR", err)
}

// lookedFor names, phase by phase, the files of pipeline p that are not
// in the project folder, and where they were looked for.
func lookedFor(p *Pipeline, projectPath string, now time.Time) string {
	var out []string
	for i := range p.Phases {
		checks, err := ValidatePhase(projectPath, &p.Phases[i], now)
		if err != nil {
			continue
		}
		if missing := NotFound(projectPath, checks); missing != "" {
			out = append(out, missing)
		}
	}
	return strings.Join(out, "; ")
}

// foundNone reports whether none of the checks found its file.
func foundNone(checks []Check) bool {
	for _, c := range checks {
		if c.Path != "" {
			return false
		}
	}
	return true
}

// blockersOf turns failed checks into blockers, one per problem.
func blockersOf(phase string, checks []Check, now time.Time) []Blocker {
	var out []Blocker
	for _, c := range checks {
		if !c.Blocking() {
			continue
		}
		name := c.Path
		if name == "" {
			name = c.Type
		}
		missing := map[string]bool{}
		for _, m := range c.Missing {
			what := "missing section "
			if slices.Contains(c.Problems, "missing text "+m) {
				what = "missing text "
			}
			missing[what+m] = true
			out = append(out, Blocker{Message: fmt.Sprintf("%s: %s: %s%s", phase, name, what, m), Artifact: name, Section: m, RecordedAt: stamp(now)})
		}
		for _, p := range c.Problems {
			if !missing[p] {
				out = append(out, Blocker{Message: fmt.Sprintf("%s: %s: %s", phase, name, p), Artifact: name, RecordedAt: stamp(now)})
			}
		}
	}
	return out
}
