package pipeline

import "testing"

func TestDemoteGroupKeepsTheBriefOutline(t *testing.T) {
	g := Group{Source: "spec.md", Excerpts: []Excerpt{
		{Text: "## User Story 2 - Pay\n\ntext\n\n### Acceptance\n\n```\n## not a heading\n```\n"},
		{Text: "# Title\n\n#hashtag is not a heading\n    ## indented code\n"},
	}}
	got := demoteGroup(g)
	want := []string{
		"#### User Story 2 - Pay\n\ntext\n\n##### Acceptance\n\n```\n## not a heading\n```\n",
		"#### Title\n\n#hashtag is not a heading\n    ## indented code\n",
	}
	// the top heading (# Title, level 1) goes to level 4: a shift of 3
	want[0] = "##### User Story 2 - Pay\n\ntext\n\n###### Acceptance\n\n```\n## not a heading\n```\n"
	for i := range want {
		if got.Excerpts[i].Text != want[i] {
			t.Errorf("excerpt %d:\n%q\nwant\n%q", i, got.Excerpts[i].Text, want[i])
		}
	}
	// already deep enough: unchanged
	deep := Group{Excerpts: []Excerpt{{Text: "#### a\n"}}}
	if demoteGroup(deep).Excerpts[0].Text != "#### a\n" {
		t.Error("changed a group that needed no shift")
	}
}
