package mdstore

import (
	"fmt"
	"sort"

	"github.com/curator-dev/curator/internal/secrets"
)

// TextFields are every piece of text of a memory, named as a user knows
// them, for the secret check.
func (m *Memory) TextFields() []secrets.Field {
	fs := []secrets.Field{{Name: "id", Text: m.ID}, {Name: "type", Text: m.Type}, {Name: "maturity", Text: m.Maturity},
		{Name: "brief", Text: m.Brief}, {Name: "author", Text: m.Author}}
	fs = append(fs, secrets.Strings("tags", m.Tags)...)
	fs = append(fs, secrets.Field{Name: "scenario", Text: m.Scenario})
	fs = append(fs, secrets.Strings("source_cases", m.SourceCases)...)
	fs = append(fs, mapFields("observation", m.Observation)...)
	fs = append(fs, mapFields("trashed", m.Trashed)...)
	if m.Doc != nil {
		fs = append(fs, secrets.Field{Name: "body", Text: m.Body()},
			// comments and keys curator does not know are written too
			secrets.Field{Name: "file", Text: string(m.Doc.Bytes())})
	}
	return fs
}

// TextFields are every piece of text of a reflection, for the secret check.
func (r *Reflection) TextFields() []secrets.Field {
	fs := []secrets.Field{{Name: "id", Text: r.ID}, {Name: "agent", Text: r.Agent}, {Name: "task", Text: r.Task}}
	for i, l := range r.Lessons {
		k := fmt.Sprintf("lessons[%d]", i)
		fs = append(fs, secrets.Field{Name: k + ".content", Text: l.Content}, secrets.Field{Name: k + ".category", Text: l.Category})
		fs = append(fs, secrets.Strings(k+".tags", l.Tags)...)
	}
	fs = append(fs, secrets.Strings("helpful_bullets", r.HelpfulBullets)...)
	fs = append(fs, secrets.Strings("harmful_bullets", r.HarmfulBullets)...)
	fs = append(fs, secrets.Field{Name: "body", Text: r.Body})
	if len(r.Raw) > 0 {
		fs = append(fs, secrets.Field{Name: "file", Text: string(r.Raw)})
	}
	return fs
}

// LessonOf returns the 1-based lesson a TextFields name belongs to, 0 for
// the reflection's own fields.
func LessonOf(field string) int {
	var n int
	if _, err := fmt.Sscanf(field, "lessons[%d]", &n); err == nil {
		return n + 1
	}
	return 0
}

// mapFields names the values of a map (observation.outcome, …), in key order.
func mapFields(name string, m map[string]any) []secrets.Field {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]secrets.Field, 0, len(keys))
	for _, k := range keys {
		out = append(out, secrets.Field{Name: name + "." + k, Text: fmt.Sprint(m[k])})
	}
	return out
}
