package storeinit

import (
	"testing"

	"github.com/curator-dev/curator/internal/refuse"
)

// A code owner is one word: a @user, an @org/team or an email address.
func TestCheckOwner(t *testing.T) {
	for _, ok := range []string{"@alice", "@acme/curators", "lead@example.com"} {
		if err := CheckOwner(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "alice", "@a b", "@a#x", "@a\n"} {
		if err := CheckOwner(bad); !refuse.IsRequest(err) {
			t.Errorf("%q: got %v, want a refused request", bad, err)
		}
	}
}
