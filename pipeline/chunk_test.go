package pipeline

import (
	"fmt"
	"strings"
	"testing"
)

func specWithStories(n int) string {
	var b strings.Builder
	b.WriteString("# Feature\n\nIntro.\n\n## User Scenarios & Testing\n\nHow we test.\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "### User Story %d - Title %d (Priority: P1)\n\nAs a user I want thing %d. More detail %d.\n\n", i, i, i, i)
	}
	b.WriteString("### Edge Cases\n\n- edge\n\n## Functional Requirements\n\n- FR-001\n\n## Reasoning\n\nI thought hard.\n\n## Review Checklist\n\n- [ ] x\n")
	return b.String()
}

func kinds(c *Chunk) string {
	var k []string
	for _, e := range c.Excerpts {
		switch e.Kind {
		case KindStorySummary:
			k = append(k, "S:"+e.Title[:12])
		case KindCurrentStory:
			k = append(k, "C:"+e.Title[:12])
		default:
			k = append(k, e.Title)
		}
	}
	return strings.Join(k, "|")
}

func TestChunkByUserStory(t *testing.T) {
	o := ParseOutline([]byte(specWithStories(3)))
	tr := &TransitionRule{Chunking: ChunkByUserStory, Exclude: []string{"Review Checklist"}}
	tests := []struct {
		step    int
		want    string
		leftOut int
	}{
		{1, "Feature|User Scenarios & Testing|C:User Story 1|Edge Cases|Functional Requirements", 2},
		{2, "Feature|User Scenarios & Testing|S:User Story 1|C:User Story 2|Edge Cases|Functional Requirements", 1},
		{3, "Feature|User Scenarios & Testing|S:User Story 1|S:User Story 2|C:User Story 3|Edge Cases|Functional Requirements", 0},
	}
	for _, tt := range tests {
		c := &Chunk{}
		if err := curate(c, "spec.md", "spec", o, tr, tt.step); err != nil {
			t.Fatal(err)
		}
		if got := kinds(c); got != tt.want || c.LeftOut != tt.leftOut || c.Step != tt.step || len(c.Stories) != 3 {
			t.Errorf("step %d: %s (left out %d), want %s (%d)", tt.step, got, c.LeftOut, tt.want, tt.leftOut)
		}
		for _, e := range c.Excerpts {
			if e.Kind == KindStorySummary && strings.Count(e.Text, "\n") != 1 {
				t.Errorf("summary is not one line: %q", e.Text)
			}
			if e.Kind == KindCurrentStory && !strings.Contains(e.Text, fmt.Sprintf("More detail %d.", tt.step)) {
				t.Errorf("current story not in full: %q", e.Text)
			}
			if strings.Contains(e.Text, "I thought hard") {
				t.Error("a reasoning section reached the brief")
			}
		}
	}
	if err := curate(&Chunk{}, "spec.md", "spec", o, tr, 4); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("step 4 of 3: %v", err)
	}
}

func TestChunkFullWithIncludeExclude(t *testing.T) {
	o := ParseOutline([]byte(specWithStories(2)))
	c := &Chunk{}
	tr := &TransitionRule{Chunking: ChunkFull, Include: []string{"User Scenarios", "Functional Requirements"}, Exclude: []string{"Edge Cases"}}
	if err := curate(c, "spec.md", "spec", o, tr, 0); err != nil {
		t.Fatal(err)
	}
	want := "User Scenarios & Testing|User Story 1 - Title 1 (Priority: P1)|User Story 2 - Title 2 (Priority: P1)|Functional Requirements"
	if got := kinds(c); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if len(c.Dropped) != 2 { // Edge Cases, Reasoning
		t.Errorf("dropped %q", c.Dropped)
	}
}

func TestStoriesFallback(t *testing.T) {
	o := ParseOutline([]byte("# Spec\n## US1: Login\nx\n## US2: Logout\ny\n## Requirements\n"))
	if s := Stories(o); len(s) != 2 || s[1].Title != "US2: Logout" {
		t.Errorf("stories = %v", s)
	}
}

func TestBudgetBoundaries(t *testing.T) {
	// window 1000 × 0.5 → budget 500; pressure above 375.
	for _, tt := range []struct {
		tokens int
		want   string
	}{{0, BudgetOK}, {375, BudgetOK}, {376, BudgetPressure}, {500, BudgetPressure}, {501, BudgetOver}} {
		if got := NewBudget(tt.tokens, 1000, 0.5); got.Status != tt.want || got.Limit != 500 {
			t.Errorf("%d tokens: %s (limit %d), want %s", tt.tokens, got.Status, got.Limit, tt.want)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want int
	}{
		{"", 0}, {"hello", 1}, {"hello world", 2}, {"internationalization", 3}, {"12345", 2},
		{"## Title\n", 3}, {"日本語", 3}, {"a  b", 3},
	} {
		if got := EstimateTokens(tt.s); got != tt.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestCompressionLadder(t *testing.T) {
	o := ParseOutline([]byte(specWithStories(40)))
	tr := &TransitionRule{Chunking: ChunkByUserStory, Optional: []string{"Edge Cases"}}
	render := func(window int) *BriefData {
		c := &Chunk{}
		if err := curate(c, "spec.md", "spec", o, tr, 30); err != nil {
			t.Fatal(err)
		}
		d := &BriefData{Project: "p", Phase: "implementer", Step: 30, StepCount: 40, Mission: "m"}
		out, err := fitBrief(d, c.Excerpts, window, 1)
		if err != nil {
			t.Fatal(err)
		}
		if d.Budget.Tokens != EstimateTokens(string(out)) {
			t.Errorf("window %d: reported %d tokens, brief has %d", window, d.Budget.Tokens, EstimateTokens(string(out)))
		}
		// A compressed brief ends within its budget whenever the budget
		// holds the brief's frame and the current story's first lines.
		frame := &BriefData{Project: "p", Phase: "implementer", Step: 30, StepCount: 40, Mission: "m"}
		if _, err := fitBrief(frame, nil, 100000, 1); err != nil {
			t.Fatal(err)
		}
		if len(d.Budget.Compressed) > 0 && d.Budget.Tokens > d.Budget.Limit && window > frame.Budget.Tokens+100 {
			t.Errorf("window %d: compressed to %d tokens, budget %d", window, d.Budget.Tokens, d.Budget.Limit)
		}
		if len(d.Budget.Compressed) > 0 && !strings.Contains(string(out), "**Compressed** from about") {
			t.Errorf("window %d: the brief does not say what was compressed", window)
		}
		if !strings.Contains(string(out), "User Story 30 - Title 30") {
			t.Errorf("window %d: the current story is gone", window)
		}
		return d
	}
	full := render(100000)
	if full.Budget.Status != BudgetOK || len(full.Budget.Compressed) != 0 {
		t.Fatalf("large window: %+v", full.Budget)
	}
	raw := full.Budget.Tokens
	prev := 0
	for _, shrink := range []int{raw - 5, raw - 300, raw * 2 / 3, raw / 2, raw / 4} {
		d := render(shrink)
		if d.Budget.Status != BudgetOver || len(d.Budget.Compressed) < prev || len(d.Budget.Compressed) == 0 {
			t.Errorf("window %d: %+v", shrink, d.Budget)
		}
		prev = len(d.Budget.Compressed)
	}
	if prev < 4 {
		t.Errorf("the smallest window used only %d levels", prev)
	}
}
