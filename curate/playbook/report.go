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

// SummaryStyle is how a summary marks its status lines, shows its section
// icons and colours its decisions; the zero value writes status symbols
// (✅, ⚠️), the procedure's icons (📊, 📈, 💡) and no colour.
type SummaryStyle struct {
	// Mark is the mark of a status line: status is "ok" or "warning".
	Mark func(status string) string
	// Icon is the icon of a section ("actions", "stats", "next"), "" for none.
	Icon func(section string) string
	// Paint colours text in the colour of a merge type.
	Paint func(mergeType, text string) string
}

// SectionIcons are the icons the procedure gives the summary's sections.
var SectionIcons = map[string]string{"actions": "📊", "stats": "📈", "next": "💡"}

func (st SummaryStyle) mark(status string) string {
	if st.Mark != nil {
		return st.Mark(status)
	}
	if status == "ok" {
		return "✅"
	}
	return "⚠️ "
}

// icon is the section's icon followed by a space, or "".
func (st SummaryStyle) icon(section string) string {
	icon := SectionIcons[section]
	if st.Icon != nil {
		icon = st.Icon(section)
	}
	if icon == "" {
		return ""
	}
	return icon + " "
}

func (st SummaryStyle) paint(mergeType, text string) string {
	if st.Paint != nil {
		return st.Paint(mergeType, text)
	}
	return text
}

// WriteSummary prints the run as the context-curate procedure does: the
// reflections in the header, each merge action with its numbers, the
// context stats and the next step. markdown renders it as a report file
// (--output).
func (rep Report) WriteSummary(w io.Writer, markdown bool) {
	rep.WriteStyledSummary(w, markdown, SummaryStyle{})
}

// maxActionsShown is how many actions a text summary lists (the JSON
// report lists them all).
const maxActionsShown = 50

// WriteStyledSummary is WriteSummary with the given marks, icons and colours.
func (rep Report) WriteStyledSummary(w io.Writer, markdown bool, st SummaryStyle) {
	h := func(section, s string) string {
		if markdown {
			return "## " + st.icon(section) + s + "\n\n"
		}
		return st.icon(section) + s + ":\n"
	}
	reflections := "no reflection merged"
	if len(rep.ReflectionsMerged) > 0 {
		reflections = shortList(rep.ReflectionsMerged, 8)
	}
	title := fmt.Sprintf("%s Curation Complete: %s", st.mark("ok"), reflections)
	if rep.DryRun {
		title += " (dry run: nothing changed)"
	}
	if markdown {
		title = "# " + title + "\n\nRun `" + rep.RunID + "`"
		if rep.Commit != "" {
			title += ", commit `" + rep.Commit + "`"
		}
		title += "."
	}
	fmt.Fprintf(w, "%s\n", title)
	for _, note := range rep.Warnings {
		fmt.Fprintf(w, "%s %s\n", st.mark("warning"), note)
	}
	fmt.Fprint(w, "\n"+h("actions", "Merge Actions"))
	if len(rep.Actions) == 0 {
		fmt.Fprintln(w, "   - none")
	}
	totals := map[string]BulletTotals{}
	for _, b := range rep.Bullets {
		totals[b.ID] = b
	}
	for i, a := range rep.Actions {
		if i == maxActionsShown {
			fmt.Fprintf(w, "   - … and %d more: %s (--json lists every action)\n", len(rep.Actions)-i, rep.countList())
			break
		}
		fmt.Fprintf(w, "   - %s\n", actionLine(a, totals[a.Subject()], st))
	}
	for _, hr := range rep.ReflectionsHeld {
		fmt.Fprintf(w, "%s reflection %s held: %s; it stays pending, nothing of it was written\n", st.mark("warning"), hr.ReflectionID, hr.Problem())
	}
	if len(rep.RejectedLessons) > 0 {
		fmt.Fprint(w, "\n"+h("", "Rejected lessons (not actionable)"))
		for _, l := range rep.RejectedLessons {
			fmt.Fprintf(w, "   - %s#%d %q: %s\n", l.ReflectionID, l.Lesson, l.Content, l.Reason)
		}
	}
	if m := rep.Maintenance; m != nil {
		fmt.Fprint(w, "\n"+h("", "Maintenance"))
		fmt.Fprintf(w, "   - exact duplicate groups: %d (%d extra copies)\n", len(m.ExactGroups), m.ExactExtra)
		for _, g := range m.ExactGroups {
			fmt.Fprintf(w, "     - %s\n", strings.Join(g, " = "))
		}
		fmt.Fprintf(w, "   - near-duplicate pairs (> %.2f): %d\n", DedupThreshold, len(m.NearPairs))
		for _, p := range m.NearPairs {
			fmt.Fprintf(w, "     - %s ~ %s (%.4f)\n", p.A, p.B, p.Score)
		}
		fmt.Fprintf(w, "   - overlapping pairs: %d\n", len(m.Overlapping))
	}
	fmt.Fprint(w, "\n"+h("stats", "Context Stats"))
	active := fmt.Sprintf("%d", rep.After.Active)
	if rep.Before.Active != rep.After.Active {
		active += fmt.Sprintf(" (was %d)", rep.Before.Active)
	}
	if rep.After.Archived != rep.Before.Archived {
		active += fmt.Sprintf("; archived %d → %d", rep.Before.Archived, rep.After.Archived)
	}
	fmt.Fprintf(w, "   - Total active bullets: %s\n", active)
	fmt.Fprintf(w, "   - Avg confidence: %.2f\n", rep.After.AvgConfidence)
	fmt.Fprintf(w, "   - Bullets needing validation: %d\n", rep.After.ValidationRequired)
	fmt.Fprintf(w, "   - By category: %s\n", categoryList(rep.After.ByCategory))
	fmt.Fprintf(w, "   - Helpful %d, harmful %d; ~%d tokens\n", rep.After.Helpful, rep.After.Harmful, rep.After.Tokens)
	fmt.Fprintf(w, "\n%sNext: %s\n", st.icon("next"), rep.nextStep())
}

// actionLine is one merge action as the procedure words it, with the
// numbers the run left its bullet with (t) and the lesson it answers.
func actionLine(a Action, t BulletTotals, st SummaryStyle) string {
	now := fmt.Sprintf("(now %d helpful, %d harmful)", t.Helpful, t.Harmful)
	review := ""
	if a.Validation == "required" {
		review = ", needs validation"
	}
	var what string
	switch a.Type {
	case ActNewBullet:
		what = fmt.Sprintf("%s (confidence: %.2f%s)", st.paint(a.Type, "New bullet added"), a.Confidence, review)
	case ActIncrementHelpful:
		what = st.paint(a.Type, "Helpful count +1") + " " + now
	case ActIncrementHarmful:
		what = st.paint(a.Type, "Harmful count +1") + " " + now
	case ActMergeSimilar:
		what = fmt.Sprintf("%s %s (similarity: %.2f%s)", st.paint(a.Type, "Merged"), strings.Join(a.MergedFrom, " + "), a.Similarity, review)
	case ActProposal:
		what = st.paint(a.Type, "Proposed for review") + ": " + a.Reasoning
	case ActArchive:
		what = st.paint(a.Type, "Archived") + ": " + a.Reasoning
	case ActPrune:
		what = st.paint(a.Type, "Pruned") + ": " + a.Reasoning
	case ActRebalance:
		what = fmt.Sprintf("%s %d", st.paint(a.Type, "Priority rebalanced to"), a.Priority)
	case ActSkip:
		what = st.paint(a.Type, "Lesson skipped")
		if a.Subject() != "" {
			what += " (" + a.Subject() + ")"
		}
		if a.ReflectionID != "" && a.Lesson > 0 {
			what += fmt.Sprintf(" [%s#%d]", a.ReflectionID, a.Lesson)
		}
		return what + ": " + a.Reasoning
	default:
		what = st.paint(a.Type, a.Type) + ": " + a.Reasoning
	}
	line := a.Subject() + ": " + what
	if a.ReflectionID != "" && a.Lesson > 0 {
		line += fmt.Sprintf(" [%s#%d]", a.ReflectionID, a.Lesson)
	}
	return line
}

// countList is the run's action counts, "2 new_bullet, 1 skip".
func (rep Report) countList() string {
	var parts []string
	for _, t := range ActionTypes {
		if n := rep.Counts[t]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, t))
		}
	}
	return strings.Join(parts, ", ")
}

// nextStep is what the summary suggests to do next.
func (rep Report) nextStep() string {
	if rep.DryRun {
		return "Run the same command without --dry-run to apply these decisions"
	}
	inject := "curator context inject --top 10 --file CLAUDE.md to add the top bullets to CLAUDE.md"
	if rep.After.ValidationRequired == 0 {
		return "Run " + inject
	}
	first := "ID"
	for _, a := range rep.Actions {
		if a.Type == ActProposal || a.Validation == "required" {
			first = a.Subject()
			break
		}
	}
	bullets := "bullets"
	if rep.After.ValidationRequired == 1 {
		bullets = "bullet"
	}
	return fmt.Sprintf("Run curator context review approve|reject %s for the %d %s awaiting validation, then %s", first, rep.After.ValidationRequired, bullets, inject)
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
	// Selection says which bullets the block holds: "Selected for:
	// TASK" or the top by rank.
	Selection string `json:"selection"`
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
