package cmdutil

import (
	"errors"
	"fmt"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/mdstore"
)

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{errors.New("x"), ExitFailed},
		{Usagef("bad %s", "flag"), ExitUsage},
		{fmt.Errorf("wrapped: %w", Usagef("bad")), ExitUsage},
		{Blocked(errors.New("refused")), ExitBlocked},
		{fmt.Errorf("save: %w", mdstore.ErrSecret), ExitBlocked},
		{&mdstore.LockError{PID: 1, Path: "p"}, ExitLocked},
		{mdstore.ErrGitLocked, ExitLocked},
		{InvalidInputs{Files: []*mdstore.InvalidFile{{Path: "a"}, {Path: "b"}}}, ExitInvalid},
		{fmt.Errorf("x: %w", config.ErrInvalid), ExitUsage},
		{fmt.Errorf("show: %w", safepath.ErrUnsafeID), ExitUsage},
		{cli.Exit("x", 2), 2},
		// Errors are classified by type, never by their words: flag
		// errors arrive as UsageError through each command's OnUsageError.
		{errors.New("flag provided but not defined: -x"), ExitFailed},
	} {
		if got := ExitCode(tc.err); got != tc.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
	if err := (Env{}).FinishInvalid(nil); err != nil {
		t.Errorf("nothing skipped: %v", err)
	}
}
