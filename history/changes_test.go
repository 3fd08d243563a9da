package history

import (
	"strings"
	"testing"
)

func mem(id, status, extra, body string) []byte {
	return []byte("---\nid: " + id + "\ntype: fact\nstatus: " + status + "\nbrief: a fact\n" + extra + "---\n" + body + "\n")
}

func bullet(id, extra, body string) []byte {
	return []byte("---\nid: " + id + "\nhelpful_count: 3\nusage_count: 4\nharmful_count: 0\n" + extra + "---\n" + body + "\n")
}

func TestDiffKinds(t *testing.T) {
	tests := []struct {
		name  string
		files []File
		want  string // kind id from→to keys, one line per change
		warn  string // warning kinds, comma separated
	}{
		{"memory promoted", []File{
			{Path: "memory/inbox/f-1.md", Old: mem("f-1", "inbox", "", "Body.")},
			{Path: "memory/confirmed/fact/f-1.md", New: mem("f-1", "confirmed", "", "Body.")},
		}, "promoted f-1 inbox→confirmed/fact status", ""},
		{"memory promoted and edited in one commit", []File{
			{Path: "memory/inbox/f-1.md", Old: mem("f-1", "inbox", "", "Body.")},
			{Path: "memory/confirmed/fact/f-1.md", New: mem("f-1", "confirmed", "maturity: validated\n", "New body.")},
		}, "promoted f-1 inbox→confirmed/fact maturity,status body", ""},
		{"memory trashed with reason", []File{
			{Path: "memory/inbox/f-1.md", Old: mem("f-1", "inbox", "", "Body.")},
			{Path: "memory/trash/f-1.md", New: mem("f-1", "trash", "trashed:\n  reason: duplicate of f-0\n", "Body.")},
		}, "trashed f-1 inbox→trash status,trashed reason=duplicate of f-0", ""},
		{"memory restored", []File{
			{Path: "memory/trash/f-1.md", Old: mem("f-1", "trash", "", "Body.")},
			{Path: "memory/inbox/f-1.md", New: mem("f-1", "inbox", "", "Body.")},
		}, "restored f-1 trash→inbox status", ""},
		{"memory added", []File{{Path: "memory/inbox/f-2.md", New: mem("f-2", "inbox", "", "Body.")}}, "added f-2 →inbox", ""},
		{"memory removed outright", []File{{Path: "memory/inbox/f-2.md", Old: mem("f-2", "inbox", "", "Body.")}}, "removed f-2 inbox→", "removed"},
		{"memory edited, unknown key shown", []File{{Path: "memory/inbox/f-1.md",
			Old: mem("f-1", "inbox", "x-owner: ann\n", "Body."), New: mem("f-1", "inbox", "x-owner: bob\nx-new: 1\n", "Body.")}},
			"edited f-1 x-new,x-owner", ""},
		{"CRLF only is no change", []File{{Path: "memory/inbox/f-1.md",
			Old: mem("f-1", "inbox", "", "Body."), New: []byte(strings.ReplaceAll(string(mem("f-1", "inbox", "", "Body.")), "\n", "\r\n"))}},
			"", ""},
		{"CRLF with an edit", []File{{Path: "memory/inbox/f-1.md",
			Old: []byte(strings.ReplaceAll(string(mem("f-1", "inbox", "", "Body.")), "\n", "\r\n")), New: mem("f-1", "inbox", "", "Other.")}},
			"edited f-1 body", ""},
		{"bullet added", []File{{Path: "context/bullets/strategy/S-1.md", New: bullet("S-1", "", "Do it.")}}, "added S-1 →bullets/strategy", ""},
		{"bullet reinforced", []File{{Path: "context/bullets/strategy/S-1.md",
			Old: bullet("S-1", "", "Do it."), New: []byte(strings.Replace(string(bullet("S-1", "updated_at: 2026-01-02T00:00:00Z\n", "Do it.")), "helpful_count: 3", "helpful_count: 5", 1))}},
			"reinforced S-1 helpful_count,updated_at", ""},
		{"bullet counter down", []File{{Path: "context/bullets/strategy/S-1.md",
			Old: bullet("S-1", "", "Do it."), New: []byte(strings.Replace(string(bullet("S-1", "", "Do it.")), "usage_count: 4", "usage_count: 2", 1))}},
			"counters S-1 usage_count", "counter-down"},
		{"bullet harmful up", []File{{Path: "context/bullets/strategy/S-1.md",
			Old: bullet("S-1", "", "Do it."), New: []byte(strings.Replace(string(bullet("S-1", "", "Do it.")), "harmful_count: 0", "harmful_count: 1", 1))}},
			"counters S-1 harmful_count", ""},
		{"bullet edited body", []File{{Path: "context/bullets/strategy/S-1.md",
			Old: bullet("S-1", "", "Do it."), New: bullet("S-1", "", "Do it now.")}}, "edited S-1 body", ""},
		{"bullet archived", []File{
			{Path: "context/bullets/strategy/S-1.md", Old: bullet("S-1", "", "Do it.")},
			{Path: "context/archive/strategy/S-1.md", New: bullet("S-1", "", "Do it.")},
		}, "archived S-1 bullets/strategy→archive/strategy", ""},
		{"bullet removed outright", []File{{Path: "context/bullets/strategy/S-1.md", Old: bullet("S-1", "", "Do it.")}}, "removed S-1 bullets/strategy→", "removed"},
		{"bullet merged keeps parents' sentences", []File{
			{Path: "context/bullets/strategy/S-1.md", Old: bullet("S-1", "", "Run tests. Read logs.")},
			{Path: "context/archive/strategy/S-1.md", New: bullet("S-1", "", "Run tests. Read logs.")},
			{Path: "context/bullets/strategy/S-1-v2.md", New: bullet("S-1-v2", "merged_from: [S-1]\nparent_bullet_id: S-1\n", "Run   tests. Read logs. Ask first.")},
		}, "merged S-1-v2 →bullets/strategy parents=S-1 added=Ask first.\narchived S-1 bullets/strategy→archive/strategy", ""},
		{"bullet merged loses a sentence", []File{
			{Path: "context/bullets/strategy/S-1.md", Old: bullet("S-1", "", "Run tests. Read logs.")},
			{Path: "context/bullets/strategy/S-2.md", New: bullet("S-2", "parent_bullet_id: S-1\n", "Run tests.")},
		}, "merged S-2 →bullets/strategy parents=S-1\nremoved S-1 bullets/strategy→", "removed,lost-sentence"},
		{"reflection curated", []File{
			{Path: "context/reflections/pending/r-1.json", Old: []byte(`{"id":"r-1","curator_status":"pending"}`)},
			{Path: "context/reflections/merged/r-1.json", New: []byte(`{"id":"r-1","curator_status":"merged"}`)},
		}, "curated r-1 pending→merged curator_status", ""},
		{"pipeline state", []File{{Path: "pipelines/pipeline-state-web.json",
			Old: []byte(`{"overall_status":"in_progress","phases":[{"phase_number":1,"phase_name":"spec","status":"in_progress","blockers":[]}]}`),
			New: []byte(`{"overall_status":"in_progress","phases":[{"phase_number":1,"phase_name":"spec","status":"completed","blockers":[]}],"drift":[{"path":"a"}]}`)}},
			"state web drift,phase 1-spec", ""},
		{"brief written", []File{{Path: "pipelines/context-briefs/web/1-spec.md", New: []byte("# Brief\n")}}, "written web/1-spec →pipelines/context-briefs/web", ""},
		{"broken YAML on the new side", []File{{Path: "memory/inbox/f-1.md",
			Old: mem("f-1", "inbox", "", "Body."), New: []byte("---\nid: f-1\ntags: [a\n---\nBody.\n")}},
			"invalid f-1 line=3 side=new", "invalid"},
		{"broken YAML on the old side", []File{{Path: "memory/inbox/f-1.md",
			Old: []byte("---\nid: f-1\n  bad: : x\n---\n"), New: mem("f-1", "inbox", "", "Body.")}},
			"invalid f-1 line=3 side=old", ""},
		{"secret in an added record", []File{{Path: "memory/inbox/f-3.md",
			New: mem("f-3", "inbox", "", "key AKIAIOSFODNN7EXAMPLF here")}}, "added f-3 →inbox", "secret"},
		{"other files are left out", []File{{Path: "config.yaml", New: []byte("x: 1\n")}, {Path: "pipelines/pipeline-state-web.json.bak.1", New: []byte("{")}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Diff(tt.files, Options{})
			var lines []string
			for _, c := range res.Changes {
				lines = append(lines, describe(c))
			}
			if got := strings.Join(lines, "\n"); got != tt.want {
				t.Errorf("changes:\n%s\nwant:\n%s", got, tt.want)
			}
			var warns []string
			for _, w := range res.Warnings {
				warns = append(warns, w.Kind)
				if w.Kind == WarnSecret && strings.Contains(w.Message, "AKIA") {
					t.Errorf("warning shows the secret: %s", w.Message)
				}
			}
			if got := strings.Join(warns, ","); got != tt.warn {
				t.Errorf("warnings %q, want %q (%v)", got, tt.warn, res.Warnings)
			}
		})
	}
}

// describe is a change in one line for the table above.
func describe(c Change) string {
	s := c.Kind + " " + c.ID
	if c.From != "" || c.To != "" {
		s += " " + c.From + "→" + c.To
	}
	if ks := SortedKeys(c.Keys); len(ks) > 0 {
		s += " " + strings.Join(ks, ",")
	}
	if c.Body {
		s += " body"
	}
	if c.Reason != "" {
		s += " reason=" + c.Reason
	}
	if len(c.Parents) > 0 {
		s += " parents=" + strings.Join(c.Parents, ",")
	}
	if len(c.Sentences) > 0 {
		s += " added=" + strings.Join(c.Sentences, "|")
	}
	if c.Kind == Invalid {
		s += " line=" + itoa(c.Line) + " side=" + c.Side
	}
	return s
}

func TestKeyValues(t *testing.T) {
	res := Diff([]File{{Path: "context/bullets/s/S-1.md", Old: bullet("S-1", "", "x"), New: []byte(strings.Replace(string(bullet("S-1", "", "x")), "helpful_count: 3", "helpful_count: 5", 1))}}, Options{})
	if len(res.Changes) != 1 {
		t.Fatalf("changes %+v", res.Changes)
	}
	kc := res.Changes[0].Keys["helpful_count"]
	if got := Value(kc.Old) + " → " + Value(kc.New); got != "3 → 5" {
		t.Errorf("helpful_count %s", got)
	}
	if res.Counts[Reinforced] != 1 {
		t.Errorf("counts %v", res.Counts)
	}
}
