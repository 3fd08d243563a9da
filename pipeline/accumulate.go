package pipeline

import (
	"encoding/json"
	"strings"
)

// accumulate adds what a validated artifact reports (key decisions, files
// modified, deviations, test results) to the pipeline's accumulated context.
func accumulate(a *Accumulated, path string, o *Outline) {
	a.ArtifactsCreated = addUnique(a.ArtifactsCreated, path)
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
