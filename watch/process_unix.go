//go:build unix

package watch

import (
	"errors"
	"syscall"
)

// processRuns reports whether a process of that id runs (or may: one of
// another user is taken as running).
func processRuns(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
