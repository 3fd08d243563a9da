// Command curator keeps what a team of coding agents has learned as plain
// files in a git repository, and curates them with deterministic rules.
package main

import (
	"os"
	"runtime/debug"
	"runtime/pprof"
)

// softMemoryLimit keeps a large run's memory near what it really holds: the
// garbage collector works harder as the heap nears it (GOMEMLIMIT overrides).
const softMemoryLimit = 256 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	// CURATOR_CPUPROFILE=FILE writes a CPU profile of the run (for benchmarks).
	if p := os.Getenv("CURATOR_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			pprof.StartCPUProfile(f)
			code := run(os.Args, os.Stdin, os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
