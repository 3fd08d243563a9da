package refuse

import (
	"errors"
	"fmt"
	"testing"
)

func TestKinds(t *testing.T) {
	base := errors.New("x")
	for _, tc := range []struct {
		err              error
		request, blocked bool
	}{
		{base, false, false},
		{Request(base), true, false},
		{fmt.Errorf("ctx: %w", Requestf("bad %d", 1)), true, false},
		{Blocked(base), false, true},
		{fmt.Errorf("ctx: %w", Blockedf("no")), false, true},
	} {
		if IsRequest(tc.err) != tc.request || IsBlocked(tc.err) != tc.blocked {
			t.Errorf("%v: request %v blocked %v", tc.err, IsRequest(tc.err), IsBlocked(tc.err))
		}
	}
	if Request(nil) != nil || Blocked(nil) != nil {
		t.Error("nil is no refusal")
	}
	if !errors.Is(Blocked(base), base) {
		t.Error("the cause is kept")
	}
}
