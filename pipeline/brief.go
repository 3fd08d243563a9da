package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"

	"github.com/curator-dev/curator/templates"
)

// BriefData is what the brief template renders.
type BriefData struct {
	Project, PipelineType, PipelineID, ProjectPath string
	Phase, PhaseDisplay, From                      string
	PhaseNumber, PhaseCount                        int
	Step, StepCount                                int
	StepName                                       string
	GeneratedAt                                    string
	Mission                                        string
	Budget                                         Budget
	Groups                                         []Group
	LeftOut                                        int
	Accumulated                                    Accumulated
	TestResults                                    string
	Warnings                                       []string
	References                                     []string
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
	LevelDropOptional   = "dropped optional sections"
	LevelSummariseSteps = "summarised earlier steps and accumulated lists"
	LevelHeadsSentences = "kept section heads and first sentences"
	LevelReferences     = "replaced bodies by file references"
	LevelTruncate       = "left out the last sections"
)

// fitBrief renders the brief, estimates it, and compresses it level by level
// while it is over budget. It returns the final brief and its budget.
func fitBrief(d *BriefData, ex []Excerpt, window int, threshold float64) ([]byte, error) {
	render := func() ([]byte, int, error) {
		d.Groups = groups(ex)
		out, err := renderBrief(d)
		return out, EstimateTokens(string(out)), err
	}
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
	for _, level := range []string{LevelDropOptional, LevelSummariseSteps, LevelHeadsSentences, LevelReferences, LevelTruncate} {
		if tokens <= d.Budget.Limit {
			break
		}
		ex = compress(level, ex, d, tokens-d.Budget.Limit)
		d.Budget.Compressed = append(d.Budget.Compressed, level)
		if _, tokens, err = render(); err != nil {
			return nil, err
		}
	}
	// The budget section itself changes the count a little: rate the final text.
	d.Budget.Tokens, d.Budget.RawTokens = tokens, raw
	out, err := renderBrief(d)
	if err != nil {
		return nil, err
	}
	d.Budget.Tokens = EstimateTokens(string(out))
	return renderBrief(d)
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
		a.ArtifactsCreated, a.Deviations = lastN(a.ArtifactsCreated, 20), lastN(a.Deviations, 10)
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
		budget := max(EstimateTokens(joinText(ex))-over, 0)
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
			out = append(out, Excerpt{Source: ex[len(ex)-1].Source, Kind: KindReference,
				Text: fmt.Sprintf("\n_%d more sections left out to fit the budget; read them in the files under References._\n", left)})
		}
	}
	return out
}

func headAndSentence(e Excerpt) string {
	head, body, _ := strings.Cut(e.Text, "\n")
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
