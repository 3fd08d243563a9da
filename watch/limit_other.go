//go:build !unix

package watch

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// isLimit says whether err is the system refusing more watches.
func isLimit(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENOSPC)
}

// limitMessage says that the system refused more watches and that the
// Watcher polls instead.
func limitMessage(cause error, watched int, every time.Duration) string {
	return fmt.Sprintf("the system refused to watch more than %d folders (%v), "+
		"so changes are found by polling every %s instead",
		watched, cause, every)
}

// overflowHint has nothing to add here.
func overflowHint() string { return "" }
