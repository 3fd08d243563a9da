//go:build unix

package main

import (
	"os"
	"syscall"
)

// childMaxRSS is a finished child's peak memory from its rusage (0 when
// unknown).
func childMaxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) * 1024
	}
	return 0
}

// syncDisks writes every file system's dirty data back before a timed run.
func syncDisks() { syscall.Sync() }
