//go:build unix && !linux

package watch

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// isLimit says whether err is the system refusing more watches: kqueue
// keeps one open file per watched file and folder, so the open-file
// limit is the watch limit.
func isLimit(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ENOSPC)
}

// limitMessage says which limit was reached, that the Watcher polls
// instead, and how to raise the limit.
func limitMessage(cause error, watched int, every time.Duration) string {
	return fmt.Sprintf("the open-file limit is reached after watching %d folders (%v), "+
		"so changes are found by polling every %s instead; raise it with `ulimit -n` "+
		"(and on macOS `sudo sysctl kern.maxfiles kern.maxfilesperproc`)",
		watched, cause, every)
}

// overflowHint has nothing to add here.
func overflowHint() string { return "" }
