package dashboard

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/templates"
)

// View is what the dashboard shows.
type View struct {
	Project, PipelineType, PipelineID, ProjectPath string
	OverallStatus, StartedAt, UpdatedAt            string
	Current                                        string
	Reconstructed                                  bool
	Confidence                                     string
	// Hold is why and since when the pipeline is on hold (nil otherwise).
	Hold       *pipeline.HoldRecord
	Phases     []PhaseView
	Budget     *pipeline.Budget
	BriefPath  string
	Blockers   []string
	Warnings   []string
	DriftCount int
	Decisions  []string
}

// PhaseView is one phase row.
type PhaseView struct {
	Number                 int
	Name, Display, Status  string
	StartedAt, CompletedAt string
	Summary, Brief         string
	Current                bool
	Steps                  []pipeline.Step
	StepsDone              int
	Artifacts              []ArtifactView
}

// ArtifactView is one artifact with its validation and drift.
type ArtifactView struct {
	Path, Type, SHA256, ValidatedAt, LastModified string
	Size                                          int64
	Drift                                         string
}

// ViewOf builds the view of a state and what the last mode reported.
func ViewOf(st *pipeline.State, r *pipeline.Report) View {
	v := View{
		Project: st.ProjectName, PipelineType: st.PipelineLabel(), PipelineID: st.PipelineID, ProjectPath: st.ProjectPath,
		OverallStatus: st.OverallStatus, StartedAt: st.StartedAt, UpdatedAt: st.UpdatedAt, Reconstructed: st.Reconstructed,
		Confidence: fmt.Sprintf("%.0f%%", st.ReconstructionConfidence*100),
	}
	if st.OverallStatus == pipeline.OverallOnHold {
		v.Hold = st.Hold
	}
	v.Current = fmt.Sprintf("%d. %s", st.CurrentPhase.PhaseNumber, st.CurrentPhase.PhaseName)
	if st.CurrentPhase.StepNumber > 0 {
		v.Current += fmt.Sprintf(" — step %d: %s", st.CurrentPhase.StepNumber, st.CurrentPhase.StepName)
	}
	drift := map[string]pipeline.Drift{}
	if r != nil {
		for _, d := range r.Drift {
			drift[d.Phase+"\x00"+d.Path] = d
		}
		v.DriftCount = len(r.Drift)
		v.Warnings = r.Warnings
		v.Decisions = r.Decisions
		v.Budget = r.Budget
		v.BriefPath = r.BriefPath
	}
	// the state's last brief, when there is one, whatever the mode that
	// renders the page: the same state gives the same page
	if st.LastBrief != nil {
		lb := st.LastBrief
		b := pipeline.NewBudget(lb.Tokens, st.Config.ContextWindow, st.Config.CompressionThreshold)
		b.Compressed = lb.Compressed
		if lb.Status != "" {
			b.Status = lb.Status
		}
		v.Budget, v.BriefPath = &b, lb.Path
	}
	for _, ph := range st.Phases {
		pv := PhaseView{Number: ph.PhaseNumber, Name: ph.PhaseName, Display: ph.DisplayName, Status: ph.Status,
			StartedAt: ph.StartedAt, CompletedAt: ph.CompletedAt, Summary: ph.Summary, Brief: ph.ContextBriefPath,
			Current: ph.PhaseName == st.CurrentPhase.PhaseName, Steps: ph.Steps}
		for _, s := range ph.Steps {
			if s.Status == pipeline.StatusCompleted {
				pv.StepsDone++
			}
		}
		for _, a := range ph.Artifacts {
			av := ArtifactView{Path: a.Path, Type: a.Type, SHA256: a.SHA256, ValidatedAt: a.ValidatedAt, LastModified: a.LastModified, Size: a.SizeBytes}
			if d, ok := drift[ph.PhaseName+"\x00"+a.Path]; ok {
				av.Drift = d.Change
				if d.ModifiedAt != "" {
					av.Drift += " at " + d.ModifiedAt
				}
				if d.SHA256 != "" {
					av.Drift += fmt.Sprintf(" (sha256 %.12s → %.12s)", d.ValidatedSHA256, d.SHA256)
				}
			}
			pv.Artifacts = append(pv.Artifacts, av)
		}
		for _, b := range ph.Blockers {
			v.Blockers = append(v.Blockers, b.Message)
		}
		v.Phases = append(v.Phases, pv)
	}
	return v
}

var pageTemplate = template.Must(template.New(templates.Dashboard).Funcs(template.FuncMap{
	"short": func(s string) string {
		if len(s) > 12 {
			return s[:12]
		}
		return s
	},
	"class": func(s string) string { return "st-" + strings.ReplaceAll(s, " ", "-") },
	// budgetMark is the CSS shape of a budget status (the page shows no
	// emoji, so it needs no emoji font): ok, warn or bad.
	"budgetMark": func(status string) string {
		switch status {
		case pipeline.BudgetOver:
			return "bad"
		case pipeline.BudgetPressure:
			return "warn"
		}
		return "ok"
	},
	"pct": func(b *pipeline.Budget) string {
		if b == nil || b.Limit == 0 {
			return "0"
		}
		return fmt.Sprintf("%.0f", min(100, 100*float64(b.Tokens)/float64(b.Limit)))
	},
}).ParseFS(templates.FS, templates.Dashboard))

// Render writes the dashboard page of a view.
func Render(v View) ([]byte, error) {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ForPipeline is the pipeline.Env.Dashboard hook: it renders the state as
// the last mode left it.
func ForPipeline(st *pipeline.State, r *pipeline.Report) ([]byte, error) {
	return Render(ViewOf(st, r))
}
