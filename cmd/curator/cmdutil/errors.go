package cmdutil

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/mdstore"
)

// Exit statuses (SPEC §3), for scripts:
//
//	0 done
//	1 failed
//	2 usage error (also: config.yaml is invalid, an id cannot name a record)
//	3 validation blocked the operation
//	4 another curator run holds the store's lock
//	5 done, but some inputs were invalid and were skipped (reported)
//	6 the agent's access level (config.yaml access) is below what the
//	  operation needs; nothing was changed
const (
	ExitOK      = 0
	ExitFailed  = 1
	ExitUsage   = 2
	ExitBlocked = 3
	ExitLocked  = 4
	ExitInvalid = 5
	ExitDenied  = 6
)

// UsageError marks an error in how the command was called.
type UsageError struct{ error }

func (e UsageError) Unwrap() error { return e.error }

// BlockedError marks an operation refused by validation.
type BlockedError struct{ error }

func (e BlockedError) Unwrap() error { return e.error }

// InvalidInputs is returned when a run finished but skipped invalid inputs
// (exit 5): Files names each one, with its line where known and why.
type InvalidInputs struct{ Files []*mdstore.InvalidFile }

func (e InvalidInputs) Error() string {
	if len(e.Files) == 1 {
		return "1 invalid input was skipped and left untouched"
	}
	return fmt.Sprintf("%d invalid inputs were skipped and left untouched", len(e.Files))
}

// Usagef is a usage error (exit 2).
func Usagef(format string, a ...any) error {
	return UsageError{fmt.Errorf(format, a...)}
}

// Usage marks err as a usage error (exit 2).
func Usage(err error) error { return UsageError{err} }

// Blocked marks err as refused by validation (exit 3).
func Blocked(err error) error { return BlockedError{err} }

// CheckID refuses (exit 2) an id given on the command line that cannot
// name a record: what names it (a flag, "ID") and why. An empty id passes
// (the flag was not given).
func CheckID(what, id string) error {
	if id == "" {
		return nil
	}
	if err := safepath.CheckID(id); err != nil {
		return Usagef("%s: %w", what, err)
	}
	return nil
}

// ExitCode is the one table from errors to exit statuses.
func ExitCode(err error) int {
	var u UsageError
	var b BlockedError
	var inv InvalidInputs
	var ce cli.ExitCoder
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &inv):
		return ExitInvalid
	case errors.As(err, &u), refuse.IsRequest(err):
		return ExitUsage
	case errors.As(err, &b), refuse.IsBlocked(err):
		return ExitBlocked
	case errors.Is(err, mdstore.ErrSecret), errors.Is(err, mdstore.ErrUnreadable):
		return ExitBlocked
	case errors.Is(err, config.ErrInvalid):
		return ExitUsage // the user's settings: fix config.yaml and run again
	case errors.Is(err, safepath.ErrUnsafeID):
		return ExitUsage // an id given to the command cannot name a record
	case refuse.IsPermission(err):
		return ExitDenied
	case errors.Is(err, mdstore.ErrLocked), errors.Is(err, mdstore.ErrGitLocked):
		return ExitLocked
	case errors.As(err, &ce):
		return ce.ExitCode()
	}
	return ExitFailed
}
