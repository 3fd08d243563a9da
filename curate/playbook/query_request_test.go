package playbook

import (
	"context"
	"strings"
	"testing"
)

// A query's category and tags are read as the use-case reads them,
// whichever interface gave them: the category as its folder name, tags
// trimmed and the empty ones left out.
func TestQueryReadsCategoryAndTagsItself(t *testing.T) {
	s := appWorldStore(t)
	ctx := context.Background()
	all, err := Query(ctx, s, QueryRequest{})
	if err != nil || len(all.Bullets) == 0 {
		t.Fatalf("query: %v, %v", all, err)
	}
	ids := func(q QueryRequest) []string {
		t.Helper()
		rep, err := Query(ctx, s, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range rep.Bullets {
			out = append(out, b.ID)
		}
		return out
	}
	cat := all.Bullets[0].Category
	want := ids(QueryRequest{Category: cat})
	if got := ids(QueryRequest{Category: " " + strings.ToUpper(strings.ReplaceAll(cat, "-", " ")) + " "}); strings.Join(got, ",") != strings.Join(want, ",") || len(want) == 0 {
		t.Errorf("category %q: %v, want %v", cat, got, want)
	}
	for _, b := range all.Bullets {
		if len(b.Tags) == 0 {
			continue
		}
		want := ids(QueryRequest{Tags: []string{b.Tags[0]}})
		if got := ids(QueryRequest{Tags: []string{" " + b.Tags[0] + " ", ""}}); strings.Join(got, ",") != strings.Join(want, ",") || len(want) == 0 {
			t.Errorf("tag %q: %v, want %v", b.Tags[0], got, want)
		}
		break
	}
}
