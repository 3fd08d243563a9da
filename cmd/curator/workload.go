package main

import (
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/internal/memlimit"
	"github.com/curator-dev/curator/mdstore/cache"
)

// A workload is what a run asks of the garbage collector: the least soft
// memory limit (the limit follows the live heap: half again what the last
// collection kept, at least this) and how much the heap may grow between
// collections (Go's GOGC), and whether the run maps the caches it reads
// whole (cache.MapFiles: not in a process that keeps running, as a
// mapping is never released). main sets it once, before the command runs,
// from what the command is; GOMEMLIMIT and GOGC override.
type workload struct {
	name      string
	floor     int64
	gcPercent int
	// keepsRunning: the process reads the caches again and again (the
	// MCP server, watch), so it reads them into memory.
	keepsRunning bool
}

var (
	// shortRun is every command not in workloads: its memory stays near
	// what it really holds, and a run that holds much is not collected
	// over and over; below the limit it collects less often than Go's
	// default (GOGC=100 collects some twenty times in an hourly run).
	shortRun = workload{name: "short run", floor: 128 << 20, gcPercent: 400}
	// memoryPass is a memory curation (memory curate, watch --memory).
	memoryPass = workload{name: "memory pass", floor: memory.PassMemoryLimit, gcPercent: shortRun.gcPercent}
	// maintenance holds every bullet's text and every category's candidate
	// index (about 300 MB at 100,000 bullets): with the short runs' limit
	// the collector would run four times as often. The heap may grow 2×,
	// not 5×, between collections.
	maintenance = workload{name: "maintenance", floor: 1 << 30, gcPercent: 100}
	// server is `curator mcp`: it lives long and holds the live memory
	// listing, packed (about 25 MB at 100,000 entries, few pointers for
	// the collector to follow), so a short run's limit serves it. No call
	// changes it: a curate_memory call runs under the server's setting.
	server = workload{name: "server", floor: shortRun.floor, gcPercent: shortRun.gcPercent, keepsRunning: true}
	// search is `memory search`: it maps the stored search index (about
	// 24 MB at 100,000 memories), loads its candidate index and decodes
	// the memories it looks at (some 40 MB in all), answers and ends; a
	// collection would only mark it all again. The collector runs at the
	// soft limit alone (a search that builds the index again holds more,
	// and is collected there).
	search = workload{name: "search", floor: 256 << 20, gcPercent: -1}
)

// workloads are the commands that are not short runs, by their path; a
// command's flags may say which workload it is.
var workloads = map[string]func(c *cli.Context) workload{
	"memory curate": func(*cli.Context) workload { return memoryPass },
	"context curate": func(c *cli.Context) workload {
		if c.Bool("maintenance") {
			return maintenance
		}
		return shortRun
	},
	"watch": func(c *cli.Context) workload {
		w := shortRun
		if c.Bool("memory") {
			w = memoryPass
		}
		w.name, w.keepsRunning = "watch ("+w.name+")", true
		return w
	},
	"mcp":           func(*cli.Context) workload { return server },
	"memory search": func(*cli.Context) workload { return search },
}

// workloadOf is the workload of the command at path ("context curate"),
// run with the flags of c.
func workloadOf(path string, c *cli.Context) workload {
	if w, ok := workloads[path]; ok {
		return w(c)
	}
	return shortRun
}

// apply sets the collector for the workload, where the environment does
// not (GOMEMLIMIT, GOGC), and whether the caches are mapped.
func (w workload) apply() {
	cache.MapFiles(!w.keepsRunning)
	if os.Getenv("GOMEMLIMIT") == "" {
		memlimit.Follow(w.floor)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(w.gcPercent)
	}
}

// tuneCommands makes every command of the app call tune with its workload
// before it runs (nil: none is set, as in the tests' in-process runs).
func tuneCommands(cmds []*cli.Command, path string, tune func(workload)) {
	for _, c := range cmds {
		p := path + c.Name
		tuneCommands(c.Subcommands, p+" ", tune)
		if action := c.Action; action != nil && tune != nil {
			c.Action = func(ctx *cli.Context) error {
				tune(workloadOf(p, ctx))
				return action(ctx)
			}
		}
	}
}
