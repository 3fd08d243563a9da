package memory

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time of the calling thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(1, &ru) != nil { // RUSAGE_THREAD
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
