package safepath

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckID(t *testing.T) {
	for _, ok := range []string{"m-1", "STRAT-042", "记忆-1", "a.b"} {
		if err := CheckID(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`, "../x", "a\x00b", "a\nb", ".hidden", strings.Repeat("x", 201)} {
		if err := CheckID(bad); !errors.Is(err, ErrUnsafeID) {
			t.Errorf("%q: want ErrUnsafeID, got %v", bad, err)
		}
	}
}
