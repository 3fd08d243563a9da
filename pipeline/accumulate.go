package pipeline

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// accumulate adds a validated artifact of a phase (validated at at) and
// what it reports (key decisions, files modified, deviations, test results)
// to the pipeline's accumulated context.
func accumulate(a *Accumulated, path, phase, at string, o *Outline) {
	a.ArtifactsCreated = addCreated(a.ArtifactsCreated, CreatedArtifact{Path: path, Phase: phase, Timestamp: at})
	if o == nil {
		return
	}
	if s := o.Find("Key Decisions", "Decisions"); s != nil {
		a.KeyDecisions = addUnique(a.KeyDecisions, listItems(o.Body(s))...)
	}
	if s := o.Find("Files Modified", "Files Changed", "Modified Files", "Changed Files"); s != nil {
		var files []string
		for _, f := range listItems(o.Body(s)) {
			files = append(files, strings.Trim(strings.Fields(f + " ")[0], "`"))
		}
		a.FilesModified = addUnique(a.FilesModified, files...)
	}
	if s := o.Find("Deviations", "Deviations from Spec"); s != nil {
		for _, d := range listItems(o.Body(s)) {
			if !strings.EqualFold(strings.TrimRight(d, "."), "none") {
				a.Deviations = addUnique(a.Deviations, d)
			}
		}
	}
	if s := o.Find("Test Results"); s != nil {
		if t := firstSentence(o.Body(s)); t != "" {
			raw, _ := json.Marshal(map[string]string{"summary": t, "source": path})
			a.TestResults = raw
		}
	}
}

// listItems returns the text of a body's top-level list items.
func listItems(body string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
			t = t[2:]
		case len(t) > 2 && t[0] >= '0' && t[0] <= '9' && strings.Contains(t[:min(4, len(t))], ". "):
			_, t, _ = strings.Cut(t, ". ")
		default:
			continue
		}
		for _, m := range []string{"[X] ", "[x] ", "[✓] ", "[ ] "} {
			t = strings.TrimPrefix(t, m)
		}
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func addUnique(list []string, items ...string) []string {
	for _, it := range items {
		found := false
		for _, x := range list {
			if x == it {
				found = true
				break
			}
		}
		if !found {
			list = append(list, it)
		}
	}
	return list
}

// addCreated adds an artifact to artifacts_created; an artifact already
// listed keeps its entry (its phase is filled in when it had none).
func addCreated(list []CreatedArtifact, c CreatedArtifact) []CreatedArtifact {
	for i := range list {
		if list[i].Path == c.Path {
			if list[i].Phase == "" {
				list[i].Phase = c.Phase
			}
			if list[i].Timestamp == "" {
				list[i].Timestamp = c.Timestamp
			}
			return list
		}
	}
	return append(list, c)
}

// phaseSummary is a completed phase's summary, from its main artifact: the
// first paragraph of its Summary section, or else (a task list) how many
// tasks are done, or else its first paragraph of prose (metadata lines such as "**Created**: …" are passed over), at most
// 400 bytes, cut after a sentence when longer.
func phaseSummary(o *Outline) string {
	text := ""
	if s := o.Find("Summary"); s != nil {
		text = firstParagraph(o.Body(s))
	}
	if text == "" && o.TaskList {
		return taskListSummary(o)
	}
	if text == "" {
		for _, block := range strings.Split(string(o.Source), "\n\n") {
			if metadata.MatchString(strings.TrimSpace(block)) {
				continue
			}
			if text = firstParagraph(block); text != "" {
				break
			}
		}
	}
	if len(text) <= 400 {
		return text
	}
	cut := strings.LastIndex(text[:400], ". ")
	if cut < 0 {
		return oneLine(text, "")
	}
	return text[:cut+1]
}

// taskListSummary is a task list's summary: how many of its tasks are
// done, and which are not.
func taskListSummary(o *Outline) string {
	text := fmt.Sprintf("%d of %d tasks done", o.Done, o.Done+o.Open)
	if o.Open > 0 {
		text += "; not done: " + openTaskNames(o)
	}
	return text + "."
}

// metadata matches a paragraph made only of "**Key**: value" lines.
var metadata = regexp.MustCompile(`^(\*\*[^*\n]+\*\*:[^\n]*(\n|$))+$`)
