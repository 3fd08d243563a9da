package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/curator-dev/curator/templates"
)

// BriefData is what the brief template renders.
type BriefData struct {
	Project, PipelineType, PipelineID, ProjectPath string
	// Source → Target is the brief's title: the phase that hands over and
	// the phase (and step) that begins.
	Source, Target string
	// Mode is transition, resume or refresh.
	Mode                      string
	Phase, PhaseDisplay, From string
	PhaseNumber, PhaseCount   int
	Step, StepCount           int
	StepName                  string
	GeneratedAt               string
	Mission                   string
	Budget                    Budget
	Groups                    []Group
	LeftOut                   int
	Accumulated               Accumulated
	TestResults               string
	// RelevantOn is set when the brief gets relevant context: Relevant
	// are the items it holds, RelevantLeftOut those cut to fit the budget.
	RelevantOn      bool
	Relevant        []RelevantItem
	RelevantLeftOut int
	// BudgetWarnings say that the brief is under context pressure or was
	// over budget; they open the Warnings section.
	BudgetWarnings []string
	Warnings       []string
	References     []string
}

// Group is the excerpts of one source artifact.
type Group struct {
	Source   string
	Excerpts []Excerpt
}

var briefTemplate = template.Must(template.New(templates.Brief).Funcs(template.FuncMap{
	"join":      strings.Join,
	"hasSuffix": strings.HasSuffix,
}).ParseFS(templates.FS, templates.Brief))

// groups puts excerpts under their source, in order of first appearance,
// with their headings demoted below the brief's own.
func groups(ex []Excerpt) []Group {
	var out []Group
	for _, e := range ex {
		if len(out) == 0 || out[len(out)-1].Source != e.Source {
			out = append(out, Group{Source: e.Source})
		}
		out[len(out)-1].Excerpts = append(out[len(out)-1].Excerpts, e)
	}
	for i := range out {
		out[i] = demoteGroup(out[i])
	}
	return out
}

func renderBrief(d *BriefData) ([]byte, error) {
	var b bytes.Buffer
	if err := briefTemplate.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// testResultsText renders the free-form test_results value in one line.
func testResultsText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "none recorded"
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		if v, ok := m["summary"].(string); ok {
			return v
		}
	}
	return "`" + string(raw) + "`"
}

// Compression levels, applied in this order until the brief fits.
const (
	LevelRelevant       = "left out relevant context"
	LevelDropOptional   = "dropped optional sections"
	LevelSummariseSteps = "summarised earlier steps and accumulated lists"
	LevelHeadsSentences = "kept section heads and first sentences"
	LevelReferences     = "replaced bodies by file references"
	LevelTruncate       = "left out the last sections"
	LevelCut            = "cut the remaining text to fit"
)

// fitBrief renders the brief, estimates it, and compresses it level by level
// while it is over budget. It returns the final brief and its budget. A
// brief that was over budget ends within it (unless the brief's own frame —
// title, budget, accumulated state, warnings, references — is larger than
// the budget) and still carries the beginning of the current step's story,
// or of the first curated section.
func fitBrief(d *BriefData, ex []Excerpt, window int, threshold float64) ([]byte, error) {
	renderEx := func(ex []Excerpt) ([]byte, int, error) {
		d.Groups = groups(ex)
		d.BudgetWarnings = budgetWarnings(d.Budget)
		out, err := renderBrief(d)
		return out, EstimateTokens(string(out)), err
	}
	render := func() ([]byte, int, error) { return renderEx(ex) }
	// Rate the brief with its own budget section filled in (twice: the
	// numbers change the count a little).
	d.Budget = NewBudget(0, window, threshold)
	var tokens int
	var err error
	for range 2 {
		if _, tokens, err = render(); err != nil {
			return nil, err
		}
		d.Budget = NewBudget(tokens, window, threshold)
	}
	raw := tokens
	var whole []Excerpt
	all := d.Accumulated
	for _, level := range []string{LevelRelevant, LevelDropOptional, LevelSummariseSteps, LevelHeadsSentences, LevelReferences, LevelTruncate, LevelCut} {
		if tokens <= d.Budget.Limit {
			break
		}
		switch level {
		case LevelRelevant:
			if len(d.Relevant) == 0 {
				continue
			}
			cutRelevant(d, tokens-d.Budget.Limit)
		case LevelCut:
			// Cut from what was there before sections were left out, so
			// that what is kept is the beginning of the brief's content.
			ex = cutToFit(whole, d, all, renderEx)
		case LevelTruncate:
			whole = ex
			fallthrough
		default:
			ex = compress(level, ex, d, tokens-d.Budget.Limit)
		}
		d.Budget.Compressed = append(d.Budget.Compressed, level)
		if _, tokens, err = render(); err != nil {
			return nil, err
		}
	}
	// The budget section itself changes the count a little: rate the final
	// text until the numbers it shows are the numbers of the text.
	d.Budget.RawTokens = raw
	for range 3 {
		d.Budget.SetTokens(tokens)
		out, n, err := render()
		if err != nil {
			return nil, err
		}
		if n == tokens {
			return out, nil
		}
		tokens = n
	}
	d.Budget.SetTokens(tokens)
	out, _, err := render()
	return out, err
}

// budgetWarnings are the brief's Warnings about its own budget.
func budgetWarnings(b Budget) []string {
	switch b.Status {
	case BudgetPressure:
		return []string{fmt.Sprintf("%s Context pressure: this brief uses %.0f%% of its %d-token budget; keep what you add to your context small.", BudgetPressure, b.UsedPercent, b.Limit)}
	case BudgetOver:
		return []string{fmt.Sprintf("%s Over budget: the brief was about %d tokens for a %d-token budget and was compressed (see Context Budget); what was shortened is in the files under References.", BudgetOver, b.RawTokens, b.Limit)}
	}
	return nil
}

// cutToFit is the last level of the ladder: it shortens the accumulated
// lists and the warnings, then gives the excerpts the tokens that are left,
// the current story first, cutting each at a line (or word) boundary.
func cutToFit(ex []Excerpt, d *BriefData, all Accumulated, render func([]Excerpt) ([]byte, int, error)) []Excerpt {
	a := &d.Accumulated
	a.KeyDecisions, a.FilesModified, a.Deviations = lastN(a.KeyDecisions, 3), lastN(a.FilesModified, 5), lastN(a.Deviations, 3)
	if n := len(a.ArtifactsCreated); n > 5 {
		a.ArtifactsCreated = a.ArtifactsCreated[n-5:]
	}
	if n := len(d.Warnings); n > 5 {
		d.Warnings = append(d.Warnings[:5:5], fmt.Sprintf("(%d more warnings: run `curator pipeline status`)", n-5))
	}
	_, frame, err := render(nil)
	if err != nil {
		return ex
	}
	if frame+minContent > d.Budget.Limit {
		// The frame itself leaves no room: the accumulated lists become
		// counts, the warnings one line, the references their names.
		compactFrame(d, all)
		if _, frame, err = render(nil); err != nil {
			return ex
		}
	}
	// The budget section's numbers change once the brief is rated again:
	// keep some slack for them.
	target := d.Budget.Limit - budgetSlack
	avail := target - frame
	var out []Excerpt
	for range 6 {
		out = cutExcerpts(ex, avail)
		_, n, err := render(out)
		if err != nil || n <= target {
			return out
		}
		avail -= n - target + 4
	}
	return out
}

// budgetSlack is how many tokens the cut level leaves free for the budget
// section's own numbers, which change once the brief is rated again.
const budgetSlack = 12

// minContent is the room, in tokens, a brief keeps for its content when
// the cut level shrinks its frame.
const minContent = 96

// compactFrame shrinks the parts of a brief around its content to their
// least: counts for the accumulated lists, one line of warnings, references
// by name; the state file holds the rest.
func compactFrame(d *BriefData, all Accumulated) {
	a := &d.Accumulated
	count := func(list []string) []string {
		if len(list) == 0 {
			return list
		}
		return []string{fmt.Sprintf("(%d in the state file)", len(list))}
	}
	a.KeyDecisions, a.FilesModified, a.Deviations = count(all.KeyDecisions), count(all.FilesModified), count(all.Deviations)
	if n := len(a.ArtifactsCreated); n > 2 {
		a.ArtifactsCreated = a.ArtifactsCreated[n-2:]
	}
	if len(d.Warnings) > 1 {
		d.Warnings = []string{fmt.Sprintf("%d warnings: run `curator pipeline status`", len(d.Warnings))}
	}
	for i, r := range d.References {
		if name, _, ok := strings.Cut(r, " — "); ok {
			d.References[i] = name
		} else if label, path, ok := strings.Cut(r, ": "); ok {
			d.References[i] = label + ": `" + filepath.Base(path) + "`"
		}
	}
}

// cutExcerpts keeps as much of the excerpts as fits in avail tokens: the
// current story first (cut when it alone is too long), then the others in
// order; at least the beginning of one excerpt is kept.
func cutExcerpts(ex []Excerpt, avail int) []Excerpt {
	avail = max(avail, 8)
	order := make([]int, 0, len(ex))
	for i, e := range ex {
		if e.Kind == KindCurrentStory {
			order = append(order, i)
		}
	}
	for i, e := range ex {
		if e.Kind != KindCurrentStory {
			order = append(order, i)
		}
	}
	kept := make([]bool, len(ex))
	texts := make([]string, len(ex))
	used, left := 0, 0
	for _, e := range ex {
		left += e.LeftOut
	}
	for _, i := range order {
		if ex[i].LeftOut > 0 {
			continue
		}
		t := EstimateTokens(ex[i].Text)
		switch {
		case used+t <= avail:
			kept[i], texts[i] = true, ex[i].Text
			used += t
		case used == 0 || ex[i].Kind == KindCurrentStory:
			// At least the story's heading and first sentence: it is the
			// work of the step.
			note := fmt.Sprintf("\n_…cut to fit the budget; the rest is in `%s`._\n", ex[i].Source)
			text := cutText(ex[i].Text, avail-used-EstimateTokens(note))
			if least := headAndSentence(ex[i]); len(text) < len(least) {
				text = least
			}
			kept[i], texts[i] = true, text+note
			used = avail
		default:
			left++
		}
	}
	var out []Excerpt
	for i, e := range ex {
		if kept[i] {
			e.Text = texts[i]
			out = append(out, e)
		}
	}
	if left > 0 && len(ex) > 0 {
		out = append(out, leftOutNote(ex[len(ex)-1].Source, left))
	}
	return out
}

// leftOutNote says how many sections were left out to fit the budget.
func leftOutNote(source string, n int) Excerpt {
	return Excerpt{Source: source, Kind: KindReference, LeftOut: n,
		Text: fmt.Sprintf("\n_%d more sections left out to fit the budget; read them in the files under References._\n", n)}
}

// cutText keeps the beginning of text that fits in max tokens: whole lines,
// then whole words of the first line that does not fit.
func cutText(text string, max int) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if EstimateTokens(b.String()+line) <= max {
			b.WriteString(line)
			continue
		}
		for _, w := range strings.SplitAfter(line, " ") {
			if EstimateTokens(b.String()+w) > max {
				break
			}
			b.WriteString(w)
		}
		break
	}
	s := strings.TrimRight(b.String(), " ")
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "…\n"
	}
	return s
}

// compress applies one level of the ladder; over is how many tokens must go.
// The current user story is kept in full at every level: it is the work of
// the step.
func compress(level string, ex []Excerpt, d *BriefData, over int) []Excerpt {
	var out []Excerpt
	switch level {
	case LevelDropOptional:
		for _, e := range ex {
			if !e.Optional {
				out = append(out, e)
			}
		}
	case LevelSummariseSteps:
		var titles []string
		at := -1
		for _, e := range ex {
			if e.Kind == KindStorySummary {
				if at < 0 {
					at = len(out)
					out = append(out, e)
				}
				titles = append(titles, strings.TrimSuffix(e.Title, "."))
				continue
			}
			out = append(out, e)
		}
		if at >= 0 {
			out[at].Text = fmt.Sprintf("- ✓ Done before this step (%d): %s\n", len(titles), strings.Join(titles, "; "))
		}
		a := &d.Accumulated
		a.KeyDecisions, a.FilesModified = lastN(a.KeyDecisions, 10), lastN(a.FilesModified, 20)
		a.Deviations = lastN(a.Deviations, 10)
		if n := len(a.ArtifactsCreated); n > 20 {
			a.ArtifactsCreated = a.ArtifactsCreated[n-20:]
		}
	case LevelHeadsSentences:
		for _, e := range ex {
			if e.Kind == KindSection {
				e.Text = headAndSentence(e)
			}
			out = append(out, e)
		}
	case LevelReferences:
		for _, e := range ex {
			if e.Kind == KindSection && e.Title != "" {
				e.Text = fmt.Sprintf("- %s — see `%s`\n", e.Title, e.Source)
				e.Kind = KindReference
			}
			out = append(out, e)
		}
	case LevelTruncate:
		// Keep the current story, then as many excerpts as fit.
		budget := max(EstimateTokens(joinText(ex))-over-EstimateTokens(leftOutNote("", 100).Text)-16, 0)
		used, left := 0, 0
		for _, e := range ex {
			t := EstimateTokens(e.Text)
			if e.Kind == KindCurrentStory || used+t <= budget {
				out = append(out, e)
				used += t
			} else {
				left++
			}
		}
		if left > 0 {
			out = append(out, leftOutNote(ex[len(ex)-1].Source, left))
		}
	}
	return out
}

func headAndSentence(e Excerpt) string {
	lead := e.Text[:len(e.Text)-len(strings.TrimLeft(e.Text, "\n"))]
	head, body, _ := strings.Cut(e.Text[len(lead):], "\n")
	head = lead + head
	if e.Title == "" {
		return firstSentence(e.Text) + "\n"
	}
	if s := firstSentence(body); s != "" {
		return head + "\n\n" + s + "\n\n"
	}
	return head + "\n\n"
}

func joinText(ex []Excerpt) string {
	var b strings.Builder
	for _, e := range ex {
		b.WriteString(e.Text)
	}
	return b.String()
}

func lastN(s []string, n int) []string {
	if len(s) > n {
		return append([]string{fmt.Sprintf("(%d earlier entries in the state file)", len(s)-n)}, s[len(s)-n:]...)
	}
	return s
}
