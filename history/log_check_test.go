package history

import (
	"testing"

	"github.com/curator-dev/curator/internal/refuse"
)

// A log of an unknown kind of run, or of a negative number of runs, is a
// refused request naming the parameter; Log refuses it before it opens
// the repository.
func TestQueryCheck(t *testing.T) {
	if err := (Query{Kind: "memory", Limit: 3}).Check(); err != nil {
		t.Errorf("memory, 3: %v", err)
	}
	for want, q := range map[string]Query{
		`kind "rumour": want one of memory, context, pipeline, init`: {Kind: "rumour"},
		"limit cannot be negative":                                   {Limit: -1},
	} {
		if _, err := Log(t.TempDir(), q); !refuse.IsRequest(err) || err.Error() != want {
			t.Errorf("%+v: got %v, want the refused request %q", q, err, want)
		}
	}
}
