// Command curatorbench is curator's benchmark harness. Each benchmark times
// curator against a floor measured in the same run (reading the same files
// with cat) and prints both, their ratio and the peak memory.
//
//	curatorbench memory --entries 100000
//	curatorbench memory --store 100000 --window 1000
//	curatorbench context --bullets 100000 --lessons 1000
//	curatorbench pipeline
//	curatorbench similarity --data ../shared/data/sick_train.tsv
//	curatorbench watch --files 100000 --writes 200
//	curatorbench mcp --entries 100000 --calls 1000
//	curatorbench search --memories 100000 --queries 30 --mcp-calls 300
//	curatorbench sync --records 100000 --changed 1000 --common 100
//	curatorbench merge --lines 120000
//	curatorbench dashboard --runs 10000 --records 100000
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

type bench func(args []string, stdout io.Writer) error

func benches() map[string]bench {
	return map[string]bench{
		"memory":       benchMemory,
		"similarity":   benchSimilarity,
		"pipeline":     benchPipeline,
		"context":      benchContext,
		"watch":        benchWatch,
		"review":       benchReview,
		"mcp":          benchMCP,
		"mcp-playbook": benchMCPPlaybook,
		"sync":         benchSync,
		"merge":        benchMerge,
		"dashboard":    benchDashboard,
		"search":       benchSearch,
	}
}

func main() {
	all := benches()
	if len(os.Args) < 2 || all[os.Args[1]] == nil {
		names := make([]string, 0, len(all))
		for n := range all {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "usage: curatorbench <%s> [flags]\n", strings.Join(names, "|"))
		os.Exit(2)
	}
	if err := all[os.Args[1]](os.Args[2:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "curatorbench:", err)
		os.Exit(1)
	}
}
