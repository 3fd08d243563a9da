// Command curator keeps what a team of coding agents has learned as plain
// files in a git repository, and curates them with deterministic rules.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/internal/memlimit"
	"github.com/curator-dev/curator/mdstore"
)

// softMemoryFloor is the least soft memory limit of a run: the limit
// follows the live heap (half again what the last collection kept, at
// least this), so a run's memory stays near what it really holds and a run
// that holds much is not collected over and over (GOMEMLIMIT overrides).
const softMemoryFloor = 128 << 20

// gcPercent is how much the heap may grow between collections (Go's GOGC).
const gcPercent = 400

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		memlimit.Follow(softMemoryFloor)
	}
	// A run is short: below the limit, collect less often than Go's default
	// (GOGC=100 collects some twenty times in an hourly run). GOGC overrides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	// CURATOR_CPUPROFILE=FILE writes a CPU profile of the run (for benchmarks).
	if p := os.Getenv("CURATOR_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			pprof.StartCPUProfile(f)
			code := runWith(os.Args, cmdutil.System(), timing())
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	if p := os.Getenv("CURATOR_MEMPROFILE"); p != "" {
		// CURATOR_MEMPROFILE=FILE writes the run's allocations (for benchmarks).
		runtime.MemProfileRate = 64 << 10
		code := runWith(os.Args, cmdutil.System(), timing())
		if f, err := os.Create(p); err == nil {
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
		os.Exit(code)
	}
	code := runWith(os.Args, cmdutil.System(), timing())
	reportPeakRSS()
	os.Exit(code)
}

// reportPeakRSS prints the process's own peak resident memory when
// CURATOR_PEAK_RSS is set (for benchmarks). It is read from VmHWM in
// /proc/self/status: the rusage a parent gets counts, on Linux, the memory
// of the parent itself at the time the child was started.
func reportPeakRSS() {
	if os.Getenv("CURATOR_PEAK_RSS") == "" {
		return
	}
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			fmt.Fprintf(os.Stderr, "curator: peak RSS %s\n", strings.TrimSpace(v))
		}
	}
}

// timing prints the time of each step of a save on stderr when
// CURATOR_TIMING is set (for benchmarks).
func timing() []mdstore.SaveOption {
	if os.Getenv("CURATOR_TIMING") == "" {
		return nil
	}
	start := time.Now()
	return []mdstore.SaveOption{mdstore.AfterStep(func(step string) {
		fmt.Fprintf(os.Stderr, "curator: %-9s after %v\n", step, time.Since(start).Round(time.Millisecond))
	})}
}
