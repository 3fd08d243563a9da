// Command curator keeps what a team of coding agents has learned as plain
// files in a git repository, and curates them with deterministic rules.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/mdstore"
)

func main() {
	// CURATOR_CPUPROFILE=FILE writes a CPU profile of the run (for benchmarks).
	if p := os.Getenv("CURATOR_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			pprof.StartCPUProfile(f)
			code := runWith(os.Args, cmdutil.System(), timing(), workload.apply)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	if p := os.Getenv("CURATOR_MEMPROFILE"); p != "" {
		// CURATOR_MEMPROFILE=FILE writes the run's allocations (for benchmarks).
		runtime.MemProfileRate = 64 << 10
		code := runWith(os.Args, cmdutil.System(), timing(), workload.apply)
		if f, err := os.Create(p); err == nil {
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
		os.Exit(code)
	}
	code := runWith(os.Args, cmdutil.System(), timing(), workload.apply)
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
