package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
)

// Summary is the first line of the commit that records a report's files:
// "pipeline <project>: <from> → <to>" for a transition (with " blocked"
// when validation blocked it), else "pipeline <project>: <mode>".
func (r *Report) Summary() string {
	if r.summary != "" {
		return r.summary
	}
	return fmt.Sprintf("pipeline %s: %s", r.Project, r.Mode)
}

// writes are the files of a report that are still to be written, in order.
// Every file is first redacted (RedactFiles: what it redacts is added to
// the report's warnings); a file whose content is already on disk is left
// out, and so is a brief that differs from the one on disk only by its
// **Generated** time; a move never is.
func (e *Env) writes(r *Report) ([]File, error) {
	RedactFiles(e.secrets(), r)
	var out []File
	for _, f := range r.Files {
		abs, err := e.Home.Path(f.Name)
		if err != nil {
			return nil, err
		}
		if cur, err := os.ReadFile(abs); f.From == "" && err == nil && (bytes.Equal(cur, f.Data) || sameBrief(cur, f.Data)) {
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// dashboardPage renders a project's dashboard from its state as it is now.
func (e *Env) dashboardPage(req ProjectRequest) ([]byte, error) {
	if e.Dashboard == nil {
		return nil, fmt.Errorf("no dashboard renderer")
	}
	r, err := e.status(req)
	if err != nil {
		return nil, err
	}
	return e.renderDashboard(r.State, r)
}

// dashboardReport is the dashboard mode: the page, as the report's one
// file. The state is not changed.
func (e *Env) dashboardReport(req ProjectRequest) (*Report, error) {
	page, err := e.dashboardPage(req)
	if err != nil {
		return nil, err
	}
	return &Report{Mode: "dashboard", Project: req.Project, Files: []File{{Name: DashboardName(req.Project), Data: page}}}, nil
}

// generatedLine is the line of a brief that says when it was written.
var generatedLine = regexp.MustCompile(`(?m)^\*\*Generated\*\*: .*$`)

// sameBrief reports whether two briefs differ at most by their
// **Generated** time.
func sameBrief(a, b []byte) bool {
	if !generatedLine.Match(a) || !generatedLine.Match(b) {
		return false
	}
	return bytes.Equal(generatedLine.ReplaceAll(a, nil), generatedLine.ReplaceAll(b, nil))
}
