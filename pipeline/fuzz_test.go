package pipeline

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzValidate: the section validator never panics, and a required heading
// that appears only inside a fenced code block never counts.
func FuzzValidate(f *testing.F) {
	f.Add([]byte("# Spec\n\n## User Stories\n\n- [X] done\n\n## Requirements\n\n## Success Criteria\n"))
	f.Add([]byte("```\n## Summary\n```\n"))
	f.Add([]byte("Summary\n=======\n\n1. [✓] ok\n"))
	rule := ArtifactRule{Type: "spec", Sections: []SectionRule{{AnyOf: []string{"Summary"}}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		ValidateData(rule, data)
		const fence = "```\n## Summary\n```\n"
		fenced := fence + strings.ReplaceAll(strings.ReplaceAll(string(data), "Summary", ""), "summary", "")
		if !strings.Contains(strings.ToLower(fenced[len(fence):]), "summary") {
			if _, missing, _ := ValidateData(rule, []byte(fenced)); len(missing) == 0 {
				t.Fatalf("a heading inside a code block counted:\n%q", fenced)
			}
		}
	})
}

// FuzzParseState: the state loader never panics, and a state it accepts
// survives a write and a read with its unknown fields.
func FuzzParseState(f *testing.F) {
	f.Add([]byte(`{"pipeline_type":"sdd","phases":[{"phase_name":"spec-writer","x_custom":1}],"custom_top":{"a":[1,2]}}`))
	f.Add([]byte(`{"pipeline_type":"sdd","phases":[{}],"current_phase":{"phase_number":2,"extra":"y"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := ParseState(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(st)
		if err != nil {
			t.Fatalf("cannot write an accepted state: %v", err)
		}
		again, err := ParseState(out)
		if err != nil {
			t.Fatalf("cannot read back a written state: %v\n%s", err, out)
		}
		out2, err := json.Marshal(again)
		if err != nil || string(out2) != string(out) {
			t.Fatalf("write → read → write changed the state:\n%s\n%s", out, out2)
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) == nil {
			var written map[string]json.RawMessage
			json.Unmarshal(out, &written)
			for k := range top {
				if _, ok := written[k]; !ok {
					t.Fatalf("field %q lost on rewrite", k)
				}
			}
		}
	})
}
