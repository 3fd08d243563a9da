package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
)

// BriefNoteRequest adds Warnings to a project's current brief; Why is the
// end of the commit's summary line ("curations").
type BriefNoteRequest struct {
	Project, Why string
	Warnings     []string
}

// warningsHeading is the brief template's section of warnings.
const warningsHeading = "## Warnings & Known Issues\n"

// NoteBrief adds lines to the Warnings & Known Issues section of the
// project's current brief (the last one written, as the state names it),
// as one run; the rest of the brief stays as it was, and the state is not
// changed. It returns the commit ("" when none was made). It is how what
// happened after a transition was saved reaches the next agent.
func NoteBrief(_ context.Context, e *Env, s Saver, req BriefNoteRequest) (string, error) {
	project, err := e.ProjectOf(req.Project)
	if err != nil || len(req.Warnings) == 0 {
		return "", err
	}
	_, st, err := e.openState(project)
	if err != nil {
		return "", err
	}
	if st.LastBrief == nil || st.LastBrief.Path == "" {
		return "", fmt.Errorf("pipeline %s: no brief to add warnings to", project)
	}
	name := st.LastBrief.Path
	abs, err := e.Home.Path(name)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", err
	}
	noted, err := addWarnings(data, req.Warnings)
	if err != nil {
		return "", fmt.Errorf("%s: %w", abs, err)
	}
	if s == nil {
		return "", fmt.Errorf("pipeline %s: adding warnings to the brief writes a file", project)
	}
	summary := fmt.Sprintf("pipeline %s: brief warnings", project)
	if req.Why != "" {
		summary += " from the " + req.Why
	}
	return s.Save([]File{{Name: name, Data: noted}}, summary, []string{"noted in brief " + name + ": " + fmt.Sprint(len(req.Warnings)) + " warning(s)"})
}

// addWarnings adds one list item per warning at the end of the brief's
// warnings section (the last one: the curated text above may hold the
// same heading), in place of its "- None.".
func addWarnings(brief []byte, warnings []string) ([]byte, error) {
	at := bytes.LastIndex(brief, []byte("\n"+warningsHeading))
	if at < 0 {
		return nil, fmt.Errorf("the brief has no %q section", warningsHeading[:len(warningsHeading)-1])
	}
	body := at + 1 + len(warningsHeading)
	end := len(brief)
	if next := bytes.Index(brief[body:], []byte("\n## ")); next >= 0 {
		end = body + next + 1
	}
	section := bytes.TrimRight(brief[body:end], "\n")
	section = bytes.Replace(section, []byte("\n- None."), nil, 1)
	var b bytes.Buffer
	b.Write(brief[:body])
	b.Write(section)
	for _, w := range warnings {
		b.WriteString("\n- " + w)
	}
	b.WriteString("\n\n")
	b.Write(brief[end:])
	return b.Bytes(), nil
}
