package playbook

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/curator-dev/curator/mdstore"
)

// Report is the JSON report of a curate run (--json, --output).
type Report struct {
	RunID             string           `json:"run_id"`
	Commit            string           `json:"commit"`
	DryRun            bool             `json:"dry_run"`
	Counts            map[string]int   `json:"counts"`
	Actions           []Action         `json:"actions"`
	ReflectionsMerged []string         `json:"reflections_merged"`
	ReflectionsHeld   []HeldReflection `json:"reflections_held"`
	// RejectedLessons are the lessons the quality check skipped.
	RejectedLessons []RejectedLesson `json:"rejected_lessons"`
	// Bullets are the bullets the run touched, as it left them.
	Bullets     []BulletTotals     `json:"bullets"`
	Maintenance *MaintenanceReport `json:"maintenance,omitempty"`
	Before      Stats              `json:"before"`
	After       Stats              `json:"after"`
	Invalid     []string           `json:"invalid"`
	// Warnings are what the run wants its reader to know (the similarity
	// engine fell back to the lexical one).
	Warnings []string `json:"warnings,omitempty"`
	// Skipped are the invalid inputs the run left untouched (Invalid
	// names them in the JSON report).
	Skipped []*mdstore.InvalidFile `json:"-"`
	// NothingToChange: the run was no dry run and found nothing to write.
	NothingToChange bool `json:"-"`
}

// Report builds the run's report.
func (r *Run) Report(commit string, dry bool) Report {
	rep := Report{RunID: r.RunID, Commit: commit, DryRun: dry, Counts: map[string]int{},
		Actions: r.Plan.Actions, ReflectionsMerged: []string{}, ReflectionsHeld: r.Plan.Held,
		Maintenance: r.Plan.Maintenance, Before: r.Before, After: r.After, Invalid: []string{}, Warnings: r.Notes}
	if rep.Actions == nil {
		rep.Actions = []Action{}
	}
	rep.Bullets = r.Playbook.Totals(rep.Actions)
	if rep.ReflectionsHeld == nil {
		rep.ReflectionsHeld = []HeldReflection{}
	}
	rep.RejectedLessons = append([]RejectedLesson{}, r.Plan.Rejected...)
	for _, t := range ActionTypes {
		rep.Counts[t] = r.Plan.Count(t)
	}
	for _, o := range r.Plan.Reflections {
		if o.Complete {
			rep.ReflectionsMerged = append(rep.ReflectionsMerged, o.Reflection.ID)
		}
	}
	for _, f := range r.Invalid {
		rep.Invalid = append(rep.Invalid, f.Error())
	}
	return rep
}

// lessonsProcessed counts the lesson decisions of the run.
func (rep Report) lessonsProcessed() int {
	n := 0
	for _, a := range rep.Actions {
		if a.Lesson > 0 {
			n++
		}
	}
	return n
}

// SummaryStyle is how a summary marks its status lines and colours its
// decisions; the zero value writes status symbols (✅, ⚠️) and no colour.
type SummaryStyle struct {
	// Mark is the mark of a status line: status is "ok" or "warning".
	Mark func(status string) string
	// Paint colours text in the colour of a merge type.
	Paint func(mergeType, text string) string
}

func (st SummaryStyle) mark(status string) string {
	if st.Mark != nil {
		return st.Mark(status)
	}
	if status == "ok" {
		return "✅"
	}
	return "⚠️ "
}

func (st SummaryStyle) paint(mergeType, text string) string {
	if st.Paint != nil {
		return st.Paint(mergeType, text)
	}
	return text
}

// WriteSummary prints the run as the ACE curate procedure does: the headline,
// the merge actions, context stats and the next step. markdown renders it
// as a report file (--output).
func (rep Report) WriteSummary(w io.Writer, markdown bool) {
	rep.WriteStyledSummary(w, markdown, SummaryStyle{})
}

// WriteStyledSummary is WriteSummary with the given marks and colours.
func (rep Report) WriteStyledSummary(w io.Writer, markdown bool, st SummaryStyle) {
	h := func(s string) string {
		if markdown {
			return "## " + s + "\n\n"
		}
		return s + "\n"
	}
	title := fmt.Sprintf("%s Curation Complete: %d lessons processed, %d reflections merged", st.mark("ok"), rep.lessonsProcessed(), len(rep.ReflectionsMerged))
	if rep.DryRun {
		title += " (dry run: nothing changed)"
	}
	if markdown {
		title = "# " + title + "\n\nRun `" + rep.RunID + "`"
		if rep.Commit != "" {
			title += ", commit `" + rep.Commit + "`"
		}
		title += ".\n"
	}
	fmt.Fprintf(w, "%s\n", title)
	if len(rep.ReflectionsMerged) > 0 {
		fmt.Fprintf(w, "Reflections: %s\n", strings.Join(rep.ReflectionsMerged, ", "))
	}
	for _, note := range rep.Warnings {
		fmt.Fprintf(w, "%s %s\n", st.mark("warning"), note)
	}
	fmt.Fprint(w, h("Merge actions:"))
	for _, t := range ActionTypes {
		var ids []string
		for _, a := range rep.Actions {
			if a.Type == t && a.Subject() != "" {
				ids = append(ids, a.Subject())
			}
		}
		if rep.Counts[t] == 0 && (t == ActReview || t == ActRebalance) {
			continue
		}
		fmt.Fprintf(w, "  - %s %3d  %s\n", st.paint(t, fmt.Sprintf("%-18s", t)), rep.Counts[t], shortList(ids, 8))
	}
	fmt.Fprint(w, "\n"+h("Decisions:"))
	if len(rep.Actions) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, a := range rep.Actions {
		line := fmt.Sprintf("  - %s %s", st.paint(a.Type, a.Type), a.Subject())
		if a.BulletID != "" && a.TargetBulletID != "" {
			line += " ← " + strings.Join(a.MergedFrom, " + ")
		}
		if a.ReflectionID != "" && a.Lesson > 0 {
			line += fmt.Sprintf(" [%s#%d]", a.ReflectionID, a.Lesson)
		}
		fmt.Fprintf(w, "%s: %s\n", line, a.Reasoning)
	}
	if len(rep.RejectedLessons) > 0 {
		fmt.Fprint(w, "\n"+h("Rejected lessons (not actionable):"))
		for _, l := range rep.RejectedLessons {
			fmt.Fprintf(w, "  - %s#%d %q: %s\n", l.ReflectionID, l.Lesson, l.Content, l.Reason)
		}
	}
	if len(rep.Bullets) > 0 {
		fmt.Fprint(w, "\n"+h("Bullets now:"))
		writeTotals(w, rep.Bullets)
	}
	if m := rep.Maintenance; m != nil {
		fmt.Fprint(w, "\n"+h("Maintenance:"))
		fmt.Fprintf(w, "  - exact duplicate groups: %d (%d extra copies)\n", len(m.ExactGroups), m.ExactExtra)
		for _, g := range m.ExactGroups {
			fmt.Fprintf(w, "    - %s\n", strings.Join(g, " = "))
		}
		fmt.Fprintf(w, "  - near-duplicate pairs (> %.2f): %d\n", DedupThreshold, len(m.NearPairs))
		for _, p := range m.NearPairs {
			fmt.Fprintf(w, "    - %s ~ %s (%.4f)\n", p.A, p.B, p.Score)
		}
		fmt.Fprintf(w, "  - overlapping pairs: %d\n", len(m.Overlapping))
	}
	for _, hr := range rep.ReflectionsHeld {
		fmt.Fprintf(w, "\n%s reflection %s held: %s; it stays pending, nothing of it was written\n", st.mark("warning"), hr.ReflectionID, hr.Problem())
	}
	fmt.Fprint(w, "\n"+h("Context stats:"))
	fmt.Fprintf(w, "  - active bullets: %d → %d (archived %d → %d)\n", rep.Before.Active, rep.After.Active, rep.Before.Archived, rep.After.Archived)
	fmt.Fprintf(w, "  - by category: %s\n", categoryList(rep.After.ByCategory))
	fmt.Fprintf(w, "  - average confidence: %.3f; helpful %d, harmful %d; ~%d tokens\n", rep.After.AvgConfidence, rep.After.Helpful, rep.After.Harmful, rep.After.Tokens)
	fmt.Fprintf(w, "  - awaiting review: %d\n", rep.After.ValidationRequired)
	fmt.Fprint(w, "\n"+h("Next step:"))
	switch {
	case rep.DryRun:
		fmt.Fprintln(w, "  run the same command without --dry-run to apply these decisions")
	case rep.Counts[ActProposal] > 0 || rep.After.ValidationRequired > 0:
		var ids []string
		for _, a := range rep.Actions {
			if a.Type == ActProposal || a.Validation == "required" {
				ids = append(ids, a.Subject())
			}
		}
		first := "ID"
		if len(ids) > 0 {
			first = ids[0]
		}
		fmt.Fprintf(w, "  review %d bullet(s) awaiting validation: curator context review approve|reject %s\n", rep.After.ValidationRequired, first)
		fmt.Fprintln(w, "  "+InjectHint)
	default:
		fmt.Fprintln(w, "  "+InjectHint)
	}
}

// InjectHint is the next step a run that changed the playbook suggests.
const InjectHint = "curator context inject --top 10 --file CLAUDE.md   # share the best bullets with your agents"

// BulletTotals is a bullet as a run left it.
type BulletTotals struct {
	ID         string `json:"id"`
	Helpful    int    `json:"helpful_count"`
	Harmful    int    `json:"harmful_count"`
	Active     bool   `json:"is_active"`
	Validation string `json:"validation"`
}

// Totals returns the bullets the actions are about (skips left out), in
// the order of the actions, as they are now in p.
func (p *Playbook) Totals(acts []Action) []BulletTotals {
	out := []BulletTotals{}
	seen := map[string]bool{}
	for _, a := range acts {
		id := a.Subject()
		b := p.Bullet(id)
		if a.Type == ActSkip || b == nil || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, BulletTotals{ID: id, Helpful: b.HelpfulCount, Harmful: b.HarmfulCount, Active: b.IsActive, Validation: b.Validation})
	}
	return out
}

// maxTotalsShown is how many bullets' totals a text summary lists (the
// JSON report lists them all).
const maxTotalsShown = 50

// writeTotals prints "  - STRAT-001: now 16 helpful, 0 harmful" lines.
func writeTotals(w io.Writer, bs []BulletTotals) {
	for i, b := range bs {
		if i == maxTotalsShown {
			fmt.Fprintf(w, "  - … and %d more (--json lists every bullet)\n", len(bs)-i)
			break
		}
		note := ""
		switch {
		case !b.Active:
			note = " (archived)"
		case b.Validation == "required":
			note = " (awaiting review)"
		}
		fmt.Fprintf(w, "  - %s: now %d helpful, %d harmful%s\n", b.ID, b.Helpful, b.Harmful, note)
	}
}

func shortList(ids []string, n int) string {
	if len(ids) > n {
		return strings.Join(ids[:n], ", ") + fmt.Sprintf(", … (+%d)", len(ids)-n)
	}
	return strings.Join(ids, ", ")
}

func categoryList(m map[string]int) string {
	if len(m) == 0 {
		return "(empty)"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// ActionsReport is the --json output of apply and review.
type ActionsReport struct {
	Actions []Action               `json:"actions"`
	Commit  string                 `json:"commit"`
	Invalid []*mdstore.InvalidFile `json:"invalid"`
	// DryRun: nothing was changed (apply --dry-run).
	DryRun bool `json:"dry_run"`
	// ReflectionsMerged are the reflections the run moved to merged/.
	ReflectionsMerged []string `json:"reflections_merged"`
	// Bullets are the bullets the run touched, as it left them.
	Bullets []BulletTotals `json:"bullets"`
}

// NewActionsReport never holds nil lists.
func NewActionsReport(acts []Action, commit string, invalid []*mdstore.InvalidFile) ActionsReport {
	if acts == nil {
		acts = []Action{}
	}
	if invalid == nil {
		invalid = []*mdstore.InvalidFile{}
	}
	return ActionsReport{Actions: acts, Commit: commit, Invalid: invalid, ReflectionsMerged: []string{}, Bullets: []BulletTotals{}}
}

// WriteText prints the report as apply and review do: each action, the
// reflections merged, each touched bullet's totals and the next step.
func (rep ActionsReport) WriteText(w io.Writer) {
	if rep.DryRun {
		fmt.Fprintln(w, "Dry run: nothing was changed. These actions would be applied:")
	}
	for _, a := range rep.Actions {
		line := a.Type + " " + a.Subject()
		if a.Type == ActMergeSimilar && len(a.MergedFrom) > 0 {
			line += " ← " + strings.Join(a.MergedFrom, " + ")
		}
		fmt.Fprintf(w, "%s: %s\n", line, a.Reasoning)
	}
	if len(rep.ReflectionsMerged) > 0 {
		verb := "merged"
		if rep.DryRun {
			verb = "to be merged"
		}
		fmt.Fprintf(w, "Reflections %s: %s\n", verb, strings.Join(rep.ReflectionsMerged, ", "))
	}
	if len(rep.Bullets) > 0 {
		fmt.Fprintln(w, "Bullets now:")
		writeTotals(w, rep.Bullets)
	}
	if len(rep.Actions) > 0 && !rep.DryRun {
		fmt.Fprintln(w, "Next step: "+InjectHint)
	}
}

// ImportReport is the --json output of import.
type ImportReport struct {
	Commit   string   `json:"commit"`
	IDs      []string `json:"ids"`
	Imported int      `json:"imported"`
	Read     int      `json:"read"`
	Refused  []string `json:"refused"`
	Skipped  int      `json:"skipped"`
	// Invalid are the inputs left out: the store's bullets that could not
	// be read, and each bullet of the imported file that was refused.
	Invalid []*mdstore.InvalidFile `json:"-"`
}

// NewImportReport describes an import of read bullets.
func NewImportReport(read int, acts []Action, refused []error, commit string) ImportReport {
	rep := ImportReport{Commit: commit, IDs: make([]string, len(acts)), Imported: len(acts), Read: read,
		Refused: make([]string, len(refused)), Skipped: read - len(acts) - len(refused)}
	for i, a := range acts {
		rep.IDs[i] = a.BulletID
	}
	for i, e := range refused {
		rep.Refused[i] = e.Error()
	}
	return rep
}

// StatsReport is the --json output of stats.
type StatsReport struct {
	Invalid            []*mdstore.InvalidFile `json:"invalid"`
	PendingReflections int                    `json:"pending_reflections"`
	Stats              Stats                  `json:"stats"`
}

// QueryReport is the --json output of query.
type QueryReport struct {
	Bullets []QueryResult          `json:"bullets"`
	Invalid []*mdstore.InvalidFile `json:"invalid"`
	// Notes are said beside the bullets (the engine fell back to lexical).
	Notes []string `json:"-"`
}

// InjectReport is the --json output of inject.
type InjectReport struct {
	// AwaitingReview is the ids of the bullets left out because they
	// wait for review.
	AwaitingReview []string `json:"awaiting_review"`
	Bullets        int      `json:"bullets"`
	Changed        bool     `json:"changed"`
	File           string   `json:"file"`
	// Skipped are the bullets that could not be read.
	Skipped []*mdstore.InvalidFile `json:"-"`
}

// ExportReport is the --json output of export.
type ExportReport struct {
	Bullets int    `json:"bullets"`
	Format  string `json:"format"`
	Text    string `json:"text"`
	// Skipped are the bullets that could not be read.
	Skipped []*mdstore.InvalidFile `json:"-"`
}

// ReflectReport is the --json output of reflect.
type ReflectReport struct {
	Commit  string `json:"commit"`
	ID      string `json:"id"`
	Lessons int    `json:"lessons"`
	Path    string `json:"path"`
}
