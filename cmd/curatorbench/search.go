package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// benchSearch times `curator memory search` on a store of n confirmed
// memories whose briefs are drawn from a small vocabulary (nearly every
// memory is a candidate of every query: the worst case of the candidate
// index): the first search (no stored index), searches with the stored
// index, and a search after one memory changed by hand; then the MCP
// server's search_memory on the same store (benchSearchMCP), started once
// the memory index is written as a store's hourly pass keeps it (unless
// --mcp-without-index).
//
//	curatorbench search --memories 100000 --queries 30 [--mcp-calls 300] [--mcp-without-index]
func benchSearch(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	n := fs.Int("memories", 100000, "confirmed memories in the store")
	queries := fs.Int("queries", 30, "timed searches with the stored index")
	bin := fs.String("curator", "", "curator binary (default: build it)")
	compare := fs.String("compare", "", "a second curator binary timed on the same store (3 searches)")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the last search with the stored index to this file")
	keep := fs.Bool("keep", false, "keep the temporary store")
	mcpCalls := fs.Int("mcp-calls", 300, "timed search_memory calls through `curator mcp` (0: none)")
	mcpProfile := fs.String("mcp-cpuprofile", "", "write a CPU profile of the `curator mcp` server to this file")
	mcpOnly := fs.String("mcp-only", "", "time only search_memory, on the store in this folder (one --keep kept: FOLDER/store)")
	noIndex := fs.Bool("mcp-without-index", false, "start `curator mcp` on a store without the memory index (it then reads every file at its first call)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tmp, curator, done, err := benchFolder("search", *keep, *bin, stdout)
	if err != nil {
		return err
	}
	defer done()
	words := searchWords
	query := func(i int) string { return words[i%16] + " " + words[(i+5)%16] + " retry" }
	var serverEnv []string
	if *mcpProfile != "" {
		p, err := filepath.Abs(*mcpProfile)
		if err != nil {
			return err
		}
		serverEnv = []string{"CURATOR_CPUPROFILE=" + p}
	}
	if *mcpOnly != "" {
		dir := filepath.Join(*mcpOnly, "store")
		fmt.Fprintf(stdout, "memory search through curator mcp, the store in %s\n", dir)
		return benchSearchMCP(dir, filepath.Join(dir, ".curator"), curator, serverEnv, *mcpCalls, query, stdout)
	}
	dir := filepath.Join(tmp, "store")
	s, err := newBenchStore(dir)
	if err != nil {
		return err
	}
	start := time.Now()
	if err := writeConfirmed(s.Dir, *n); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "memory search, %d confirmed memories (written in %.1f s)\n", *n, time.Since(start).Seconds())
	search := func(bin string, env []string, q string) (measurement, error) {
		return timeCmd(dir, env, bin, "memory", "search", q)
	}
	first, err := search(curator, nil, query(0))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "  first search (builds the stored index):  %8.1f ms  CPU %6.1f ms  peak RSS %.0f MB\n", ms(first.Wall), ms(first.CPU), mb(first.MaxRSS))
	var warm []measurement
	for i := range *queries {
		var env []string
		if i == *queries-1 && *profile != "" {
			p, err := filepath.Abs(*profile)
			if err != nil {
				return err
			}
			env = []string{"CURATOR_CPUPROFILE=" + p}
		}
		m, err := search(curator, env, query(i+1))
		if err != nil {
			return err
		}
		warm = append(warm, m)
	}
	cpus := make([]time.Duration, len(warm))
	for i, m := range warm {
		cpus[i] = m.CPU
	}
	sort.Slice(warm, func(i, j int) bool { return warm[i].Wall < warm[j].Wall })
	sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
	fmt.Fprintf(stdout, "  search with the stored index, %d runs:   p50 %6.1f ms  p90 %6.1f ms  max %6.1f ms  (target ≤ 100 ms)\n",
		len(warm), ms(warm[len(warm)/2].Wall), ms(warm[len(warm)*9/10].Wall), ms(warm[len(warm)-1].Wall))
	fmt.Fprintf(stdout, "    CPU (user + system):                    p50 %6.1f ms  p90 %6.1f ms  peak RSS %.0f MB\n",
		ms(cpus[len(cpus)/2]), ms(cpus[len(cpus)*9/10]), mb(maxRSS(warm)))
	// One memory changed as curator and most editors change a file (a new
	// file renamed over it): its folder's files are stated, it is read
	// again, the candidate index built again from the stored words, and
	// the index rewritten.
	if err := changeConfirmed(s.Dir, 0); err != nil {
		return err
	}
	changed, err := search(curator, nil, query(3))
	if err != nil {
		return err
	}
	after, err := search(curator, nil, query(4))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "  after one memory changed (renamed over): %8.1f ms  CPU %6.1f ms; the next %6.1f ms  CPU %6.1f ms\n", ms(changed.Wall), ms(changed.CPU), ms(after.Wall), ms(after.CPU))
	if *compare != "" {
		other, err := filepath.Abs(*compare)
		if err != nil {
			return err
		}
		var ts []measurement
		for i := range 3 {
			m, err := search(other, nil, query(i+1))
			if err != nil {
				return err
			}
			ts = append(ts, m)
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i].Wall < ts[j].Wall })
		fmt.Fprintf(stdout, "  %s, 3 runs:  p50 %6.1f ms  max %6.1f ms  CPU %6.1f ms  peak RSS %.0f MB\n", *compare, ms(ts[1].Wall), ms(ts[2].Wall), ms(ts[1].CPU), mb(maxRSS(ts)))
	}
	if *mcpCalls > 0 {
		if !*noIndex {
			// The memory index, as a store's hourly pass keeps it: the
			// server opens its live listing from it. A windowed listing
			// learns every file (this window holds none of them).
			m, err := timeCmd(dir, nil, curator, "--quiet", "memory", "list", "--status", "confirmed",
				"--from", "2000-01-01T00:00:00Z", "--to", "2000-01-01T00:00:01Z", "--limit", "1")
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "  the memory index written by one memory list: %.1f ms\n", ms(m.Wall))
		}
		return benchSearchMCP(dir, s.Dir, curator, serverEnv, *mcpCalls, query, stdout)
	}
	return nil
}

// changeConfirmed changes the brief of generated memory i as curator and
// most editors change a file: a new file renamed over it.
func changeConfirmed(dir string, i int) error {
	rel := filepath.Join(dir, "memory/confirmed", []string{"fact", "concept", "lesson"}[i%3], confirmedID(i)+".md")
	data, err := os.ReadFile(rel)
	if err != nil {
		return err
	}
	if err := os.WriteFile(rel+".new", []byte(strings.Replace(string(data), "brief: The ", "brief: Then the ", 1)), 0o644); err != nil {
		return err
	}
	return os.Rename(rel+".new", rel)
}

// benchSearchMCP times search_memory through `curator mcp` over stdio (the
// MCP Go SDK's client, one session): the first call apart (it opens the
// live listing and indexes every brief), then calls of the same queries as
// the command line's, p50 and p99; then one memory changed by hand, the
// call after it, the call after its folder settled (2 s), and 100 more.
func benchSearchMCP(dir, storeDir, curator string, env []string, calls int, query func(int) string, stdout io.Writer) error {
	ctx := context.Background()
	srv, err := startMCP(ctx, curator, dir, env...)
	if err != nil {
		return err
	}
	defer srv.cs.Close()
	cs, connect := srv.cs, srv.connect
	search := func(i int) (time.Duration, error) {
		res, took, err := mcpCall(ctx, cs, "search_memory", map[string]any{"query": query(i)})
		if err != nil {
			return 0, err
		}
		var rep struct {
			Results []json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal(res, &rep); err != nil {
			return 0, fmt.Errorf("search_memory: %w", err)
		}
		if len(rep.Results) == 0 {
			return 0, fmt.Errorf("search_memory %q: no result", query(i))
		}
		return took, nil
	}
	first, err := search(0)
	if err != nil {
		return err
	}
	var warm []time.Duration
	for i := 1; i <= calls; i++ {
		d, err := search(i)
		if err != nil {
			return err
		}
		warm = append(warm, d)
	}
	if err := changeConfirmed(storeDir, 1); err != nil {
		return err
	}
	changed, err := search(calls + 1)
	if err != nil {
		return err
	}
	time.Sleep(2100 * time.Millisecond) // past the racy window of the folders' clock
	settled, err := search(calls + 2)
	if err != nil {
		return err
	}
	var after []time.Duration
	for i := range 100 {
		d, err := search(calls + 3 + i)
		if err != nil {
			return err
		}
		after = append(after, d)
	}
	rss, err := srv.close()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "  curator mcp started and initialized in %.1f ms; first search_memory %.1f ms; peak RSS %.0f MB\n", pipeMS(connect), pipeMS(first), mb(rss))
	row := func(name string, d []time.Duration, note string) {
		fmt.Fprintf(stdout, "  %-44s %5d calls  p50 %8.2f ms  p99 %8.2f ms  max %8.2f ms%s\n", name, len(d), pipeMS(percentile(d, 50)), pipeMS(percentile(d, 99)), pipeMS(percentile(d, 100)), note)
	}
	row("search_memory through curator mcp", warm, "   (target p99 ≤ 20 ms)")
	fmt.Fprintf(stdout, "  the call after one memory changed by hand %.1f ms; the call after its folder settled %.1f ms\n", pipeMS(changed), pipeMS(settled))
	row("search_memory after that", after, "")
	return nil
}

// searchWords is the vocabulary of the generated briefs (as in
// curate/memory's BenchmarkSearchWarm100k).
var searchWords = []string{"postgres", "pool", "cache", "redis", "deploy", "build", "runner", "queue", "timeout", "retry", "index", "schema", "backup", "token", "latency", "replica"}

func confirmedID(i int) string { return fmt.Sprintf("m-%06d", i) }

// writeConfirmed writes n confirmed memories straight into their folders
// (not committed: a search reads the files only).
func writeConfirmed(dir string, n int) error {
	types := []string{"fact", "concept", "lesson"}
	for _, t := range types {
		if err := os.MkdirAll(filepath.Join(dir, "memory/confirmed", t), 0o755); err != nil {
			return err
		}
	}
	w := searchWords
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		typ := types[i%3]
		brief := fmt.Sprintf("The %s %s uses %s after %d %s", w[i%16], w[(i/16)%16], w[(i/256)%16], i%97, w[(i/7)%16])
		var b strings.Builder
		fmt.Fprintf(&b, "---\nid: %s\ntype: %s\nstatus: confirmed\nmaturity: confirmed\nbrief: %s\nauthor: agent-%d\ntags:\n  - %s\n", confirmedID(i), typ, brief, i%5, w[(i/3)%16])
		fmt.Fprintf(&b, "content_confidence: 3\nimportance_factors:\n  proximity: 0.5\n  surprisal: 0.5\n  entity_priority: 0.5\n  unambiguity: 0.5\n")
		fmt.Fprintf(&b, "ingestion_time: %s\n---\nNote %d: what an agent found about the %s while working on the %s.\n", t0.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), i, w[i%16], w[(i/16)%16])
		if err := os.WriteFile(filepath.Join(dir, "memory/confirmed", typ, confirmedID(i)+".md"), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
