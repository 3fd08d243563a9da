package playbook

import (
	"encoding/json"
	"strings"
	"testing"

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
			pb := New([]*mdstore.Bullet{bullet("STRAT-001", "strategy", "x", 0, 0, 0.5)}, mdstore.NewIDAllocator(nil), nil, now)
			doc, _ := json.Marshal(map[string]any{"curation_actions": []any{c.act}})
			acts, err := PlanDocument(pb, doc)
			if err == nil || !strings.Contains(err.Error(), c.want) || acts != nil || len(pb.Touched()) != 0 {
				t.Errorf("got %v (%d actions, touched %v), want %q", err, len(acts), pb.Touched(), c.want)
			}
		})
	}
	// Tab, newline and CRLF are text.
	pb := New(nil, mdstore.NewIDAllocator(nil), nil, now)
	doc, _ := json.Marshal(map[string]any{"curation_actions": []any{map[string]any{"action": "new_bullet", "category": "api",
		"content": "a\tb\nc\r\nd", "similarity_score": 0, "priority": 3}}})
	if _, err := PlanDocument(pb, doc); err != nil {
		t.Errorf("plain text refused: %v", err)
	}
}
