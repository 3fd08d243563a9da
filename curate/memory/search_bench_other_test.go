//go:build !linux

package memory

import "time"

// threadCPU is not measured here.
func threadCPU() time.Duration { return 0 }
