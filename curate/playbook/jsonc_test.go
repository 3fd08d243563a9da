package playbook

import (
	"strings"
	"testing"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/mdstore"
)

// An answer may carry // and /* */ comments outside its strings; they are
// blanked byte for byte, so offsets (and lines) stay where they were.
func TestStripComments(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"none", `{"a": 1}`, `{"a": 1}`},
		{"line", "{\"a\": 1, // why\n\"b\": 2}", "{\"a\": 1,       \n\"b\": 2}"},
		{"line at end", "{\"a\": 1} // done", "{\"a\": 1}        "},
		{"block", `{"a": /* one */ 1}`, `{"a":           1}`},
		{"block over lines", "{/* a\nb */\"a\": 1}", "{    \n    \"a\": 1}"},
		{"slashes in a string", `{"url": "http://x.y/z", "c": "/* no */"}`, `{"url": "http://x.y/z", "c": "/* no */"}`},
		{"escaped quote", `{"a": "say \"//\" twice"} // c`, `{"a": "say \"//\" twice"}     `},
		{"escaped backslash", `{"a": "c:\\"} // c`, `{"a": "c:\\"}     `},
		{"lone slash", `{"a": 1/2}`, `{"a": 1/2}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := StripComments([]byte(c.in))
			if err != nil || string(got) != c.want {
				t.Errorf("StripComments(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
	if _, err := StripComments([]byte("{\"a\": 1 /* open\n\n}")); err == nil || !strings.Contains(err.Error(), "line 1: a /* comment is never closed") {
		t.Errorf("unclosed comment: %v", err)
	}
}

// The context-curate procedure's example answer, as it prints it: a
// comment after target_bullet_id and validation_required, the action
// written as its list of choices, a new bullet without content (it takes
// the lesson's text), the bullet listed in validation_required.
const procedureExample = `{
  "curation_actions": [
    {
      "action": "new_bullet|increment_helpful|increment_harmful|merge_similar|archive",
      "bullet_id": "STRAT-042",
      "target_bullet_id": "STRAT-001",  // For increment/merge actions
      "similarity_score": 0.92,
      "reasoning": "Why this action is appropriate",
      "merged_content": "New merged content (if merge action)"
    }
  ],
  "validation_required": ["STRAT-042"],  // Bullets needing human review
  "summary": "Curated 5 lessons: 2 new, 3 reinforced existing"
}`

func TestPlanAnswerProcedureExample(t *testing.T) {
	pb := New([]*mdstore.Bullet{bullet("STRAT-001", "strategy", "Always read the API docs first.", 15, 0, 0.8)}, bulletid.NewAllocator(nil), nil, now)
	r := &mdstore.Reflection{ID: "refl-1", Lessons: []mdstore.Lesson{
		{Content: "Use Redis pub/sub for cross-agent notifications.", Category: "strategy", Confidence: fptr(0.85)}}}
	acts, err := PlanAnswer(pb, []byte(procedureExample), Answer{ReflectionID: "refl-1", Reflections: map[string]*mdstore.Reflection{"refl-1": r}})
	if err != nil {
		t.Fatal(err)
	}
	b := pb.Bullet("STRAT-042")
	if len(acts) != 2 || acts[0].Type != ActNewBullet || b == nil {
		t.Fatalf("actions %+v, bullet %v", acts, b)
	}
	if b.Content != r.Lessons[0].Content || b.Category != "strategy" || b.Confidence != 0.85 || b.Validation != "required" {
		t.Errorf("STRAT-042: %q %s %v %s", b.Content, b.Category, b.Confidence, b.Validation)
	}
	if pb.Bullet("STRAT-001").HelpfulCount != 15 {
		t.Errorf("STRAT-001 was touched")
	}
}

// Without content a new bullet is the lesson it answers; where no lesson
// can be told apart, the answer is refused.
func TestPlanAnswerNewBulletWithoutContent(t *testing.T) {
	two := &mdstore.Reflection{ID: "refl-2", Lessons: []mdstore.Lesson{
		{Content: "Page through every result page before comparing lists.", Category: "strategy"},
		{Content: "Check the HTTP status code of every response.", Category: "api"}}}
	cases := []struct {
		name, act, want, err string
	}{
		{"merged_content names the lesson", `{"action": "new_bullet", "merged_content": "Check the HTTP status code of every API response."}`, "Check the HTTP status code of every response.", ""},
		{"no words to match", `{"action": "new_bullet", "category": "api"}`, "", "content is missing and reflection refl-2 has 2 lessons"},
		{"no reflection", `{"action": "new_bullet", "category": "api", "reflection_id": "refl-none"}`, "", "content is missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pb := New(nil, bulletid.NewAllocator(nil), nil, now)
			doc := `{"curation_actions": [` + c.act + `]}`
			acts, err := PlanAnswer(pb, []byte(doc), Answer{ReflectionID: "refl-2", Reflections: map[string]*mdstore.Reflection{"refl-2": two}})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("got %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || len(acts) != 1 || acts[0].Content != c.want {
				t.Errorf("got %+v, %v; want content %q", acts, err, c.want)
			}
		})
	}
}
