//go:build unix

package storesync

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this id runs.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
