package playbook

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/mdstore"
)

// context apply refuses, before anything is written, what curator could
// not read back or must not commit.
func TestPlanDocumentRefuses(t *testing.T) {
	big := strings.Repeat("a", MaxContentBytes+1)
	cases := []struct {
		name string
		act  map[string]any
		want string
	}{
		{"similarity above 1", map[string]any{"action": "increment_helpful", "bullet_id": "STRAT-001", "similarity_score": 1.5}, "similarity_score 1.5 is out of range [0, 1]"},
		{"similarity below 0", map[string]any{"action": "increment_helpful", "bullet_id": "STRAT-001", "similarity_score": -0.1}, "similarity_score -0.1 is out of range"},
		{"confidence above 1", map[string]any{"action": "new_bullet", "category": "api", "content": "c", "confidence": 2}, "confidence 2 is out of range"},
		{"priority 11", map[string]any{"action": "new_bullet", "category": "api", "content": "c", "priority": 11}, "priority 11 is out of range 1–10"},
		{"NUL", map[string]any{"action": "new_bullet", "category": "api", "content": "a\x00b"}, "content holds the control character U+0000 at byte 1"},
		{"escape", map[string]any{"action": "merge_similar", "target_bullet_id": "STRAT-001", "merged_content": "a\x1b[31m"}, "merged_content holds the control character U+001B"},
		{"lone CR", map[string]any{"action": "new_bullet", "category": "api", "content": "a\rb"}, "U+000D"},
		{"control in tags", map[string]any{"action": "new_bullet", "category": "api", "content": "c", "tags": []string{"a\x07"}}, "tags[0] holds the control character U+0007"},
		{"oversize", map[string]any{"action": "new_bullet", "category": "api", "content": big}, "content is 1032193 bytes, over the limit"},
		{"secret in reasoning", map[string]any{"action": "increment_helpful", "bullet_id": "STRAT-001", "similarity_score": 0.9,
			"reasoning": "seen with AKIA" + "QWJ4ZT7NRX5LBV2M"}, "reasoning looks like it holds a secret (aws-access-key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pb := New([]*mdstore.Bullet{bullet("STRAT-001", "strategy", "x", 0, 0, 0.5)}, bulletid.NewAllocator(nil), nil, now)
			doc, _ := json.Marshal(map[string]any{"curation_actions": []any{c.act}})
			acts, err := PlanDocument(pb, doc)
			if err == nil || !strings.Contains(err.Error(), c.want) || acts != nil || len(pb.Touched()) != 0 {
				t.Errorf("got %v (%d actions, touched %v), want %q", err, len(acts), pb.Touched(), c.want)
			}
		})
	}
	// Tab, newline and CRLF are text.
	pb := New(nil, bulletid.NewAllocator(nil), nil, now)
	doc, _ := json.Marshal(map[string]any{"curation_actions": []any{map[string]any{"action": "new_bullet", "category": "api",
		"content": "a\tb\nc\r\nd", "similarity_score": 0, "priority": 3}}})
	if _, err := PlanDocument(pb, doc); err != nil {
		t.Errorf("plain text refused: %v", err)
	}
}

func iptr(n int) *mdstore.Priority { p := mdstore.Priority(n); return &p }

// The context-curate procedure's own answer: curation_actions with
// bullet_id, action, similarity_score, content, reasoning and
// validation_required, and a summary; new bullets give their id and no
// category.
const aceAnswer = `{
  "curation_actions": [
    {"bullet_id": "STRAT-042", "action": "new_bullet", "similarity_score": 0.45,
     "content": "Before comparing two lists fetched from a paginated API, page through every result page with the maximum page_limit.",
     "reasoning": "No existing bullet covers pagination before comparisons.", "validation_required": false, "priority": "high"},
    {"bullet_id": "STRAT-001", "action": "increment_helpful", "similarity_score": 0.92,
     "reasoning": "The lesson confirms the existing strategy."},
    {"bullet_id": "TRBL-007", "action": "new_bullet", "similarity_score": 0.2,
     "content": "When a login token expires mid-task, refresh it once and retry the failed call.",
     "reasoning": "New troubleshooting advice.", "validation_required": true}
  ],
  "summary": {"new_bullets": 2, "increments": 1, "merges": 0, "total_bullets": 3}
}`

func aceReflection() *mdstore.Reflection {
	return &mdstore.Reflection{ID: "refl-1", Path: "context/reflections/pending/refl-1.md", Lessons: []mdstore.Lesson{
		{Content: "Page through every result page with the maximum page_limit before comparing two lists.", Category: "strategy", Confidence: fptr(0.9), Priority: iptr(7)},
		{Content: "Keep the verification step short.", Category: "verification", Confidence: fptr(0.8)},
	}}
}

func TestPlanAnswerACEFormat(t *testing.T) {
	pb := New([]*mdstore.Bullet{bullet("STRAT-001", "strategy", "Always read the API docs first.", 15, 0, 0.8)}, bulletid.NewAllocator(nil), nil, now)
	r := aceReflection()
	acts, err := PlanAnswer(pb, []byte(aceAnswer), Answer{ReflectionID: "refl-1", Reflections: map[string]*mdstore.Reflection{"refl-1": r}})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 3 {
		t.Fatalf("got %d actions, want 3: %+v", len(acts), acts)
	}
	cases := []struct {
		id, category, validation string
		priority                 int
		confidence               float64
	}{
		// category, confidence from the lesson it comes from; the tier "high" is 9
		{"STRAT-042", "strategy", "none", 9, 0.9},
		// no lesson shares its words: the category of its id's prefix
		{"TRBL-007", "troubleshooting", "required", 5, 0.5},
	}
	for _, c := range cases {
		b := pb.Bullet(c.id)
		if b == nil {
			t.Fatalf("%s was not created with the id the answer gave (touched %v)", c.id, pb.Touched())
		}
		if b.Category != c.category || b.Validation != c.validation || b.Priority != c.priority || b.Confidence != c.confidence {
			t.Errorf("%s: category %q validation %q priority %d confidence %v, want %q %q %d %v",
				c.id, b.Category, b.Validation, b.Priority, b.Confidence, c.category, c.validation, c.priority, c.confidence)
		}
		if len(b.SourceReflections) != 1 || b.SourceReflections[0] != "refl-1" {
			t.Errorf("%s: source_reflections %v, want [refl-1]", c.id, b.SourceReflections)
		}
	}
	if b := pb.Bullet("STRAT-001"); b.HelpfulCount != 16 {
		t.Errorf("STRAT-001 helpful %d, want 16", b.HelpfulCount)
	}
	if got := pb.IDs.Next("strategy"); got != "STRAT-043" {
		t.Errorf("next strategy id %s, want STRAT-043", got)
	}
	tot := pb.Totals(acts)
	if len(tot) != 3 || tot[1].ID != "STRAT-001" || tot[1].Helpful != 16 || tot[1].Harmful != 0 {
		t.Errorf("totals %+v", tot)
	}
}

func TestPlanAnswerRefusesIDs(t *testing.T) {
	cases := []struct {
		name, id, want string
		seen           []string
	}{
		{"an active bullet's id", "STRAT-001", "bullet_id STRAT-001 is already in use", nil},
		{"an id the store used before", "STRAT-002", "bullet_id STRAT-002 is already in use", []string{"STRAT-002"}},
		{"the same id with other padding", "STRAT-2", "bullet_id STRAT-2 is already in use", []string{"STRAT-002"}},
		{"a version id", "STRAT-005-v2", "is not a new bullet's id", nil},
		{"no number", "strategy", "is not a new bullet's id", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pb := New([]*mdstore.Bullet{bullet("STRAT-001", "strategy", "x", 0, 0, 0.5)}, bulletid.NewAllocator(nil, c.seen...), nil, now)
			doc := `{"curation_actions": [{"bullet_id": "` + c.id + `", "action": "new_bullet", "category": "strategy", "content": "y"}]}`
			acts, err := PlanDocument(pb, []byte(doc))
			if err == nil || !strings.Contains(err.Error(), c.want) || acts != nil {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
	// The same new id twice in one answer.
	pb := New(nil, bulletid.NewAllocator(nil), nil, now)
	doc := `{"curation_actions": [{"bullet_id": "API-004", "action": "new_bullet", "content": "a"}, {"bullet_id": "API-004", "action": "new_bullet", "content": "b"}]}`
	if _, err := PlanDocument(pb, []byte(doc)); err == nil || !strings.Contains(err.Error(), "already given by curation_actions[0]") {
		t.Errorf("got %v", err)
	}
	// Without a category, a lesson or a known prefix.
	doc = `{"curation_actions": [{"action": "new_bullet", "content": "a"}]}`
	if _, err := PlanDocument(pb, []byte(doc)); err == nil || !strings.Contains(err.Error(), "category is missing") {
		t.Errorf("got %v", err)
	}
}

// A merge in the procedure's shape names the bullet the lesson merges into
// as bullet_id and carries its text in content; a priority given is stored.
func TestPlanAnswerMergeShape(t *testing.T) {
	pb := New([]*mdstore.Bullet{bullet("STRAT-001", "strategy", "Page through results.", 2, 0, 0.7)}, bulletid.NewAllocator(nil), nil, now)
	doc := `{"curation_actions": [{"bullet_id": "STRAT-001", "action": "merge_similar", "similarity_score": 0.74,
	  "content": "Page through results. Use the maximum page_limit.", "reasoning": "r", "priority": 8}]}`
	acts, err := PlanDocument(pb, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	b := pb.Bullet("STRAT-001-v2")
	if b == nil || b.Priority != 8 || b.HelpfulCount != 2 || pb.Bullet("STRAT-001").IsActive {
		t.Fatalf("merge: %+v", b)
	}
	if l := acts[0].LogLine("run", now); l.SimilarityScore != 0.74 || l.BulletID != "STRAT-001-v2" || l.TargetBulletID != "STRAT-001" {
		t.Errorf("log line %+v", l)
	}
	for _, p := range []string{`"medium"`, `5`, `"5"`} {
		var x struct {
			P AnswerPriority `json:"p"`
		}
		if err := json.Unmarshal([]byte(`{"p": `+p+`}`), &x); err != nil || x.P != 5 {
			t.Errorf("priority %s: %v %v", p, x.P, err)
		}
	}
	var x struct {
		P AnswerPriority `json:"p"`
	}
	if err := json.Unmarshal([]byte(`{"p": "urgent"}`), &x); err == nil {
		t.Error("priority \"urgent\" accepted")
	}
}

// TestAnswerIsOneObject: a second document after the answer, or a byte
// that is not UTF-8, refuses it with its line instead of being dropped or
// read as U+FFFD.
func TestAnswerIsOneObject(t *testing.T) {
	one := `{"curation_actions":[{"action":"new_bullet","category":"pattern","content":"cache outputs"}]}`
	for _, c := range []struct{ data, want string }{
		{one + "\n" + one, "line 2: more after"},
		{one + " trailing", "line 1: more after"},
		{"{\n\"curation_actions\": [{\"action\": \"new_bullet\", \"content\": \"caf\xe9\"}]}", "line 2: invalid UTF-8"},
	} {
		var doc CurationDocument
		if err := decodeAnswer([]byte(c.data), &doc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("decodeAnswer(%q): %v, want %q", c.data, err, c.want)
		}
	}
	var doc CurationDocument
	if err := decodeAnswer([]byte(one+"\n\n  \n"), &doc); err != nil || len(doc.CurationActions) != 1 {
		t.Errorf("one object and blank lines: %v, %d actions", err, len(doc.CurationActions))
	}
}
