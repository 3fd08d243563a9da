package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchMCP measures `curator mcp` on a store of --entries inbox entries,
// driven by the MCP Go SDK's client over stdio: --calls list_entries calls
// of 100 entries (each a different window of 150 entries, at a different
// offset, so each reads the store), five of the first page of the whole
// inbox (each a new snapshot), and --calls update_long_term round trips
// (importance_factors.proximity alternating on ten entries, one commit
// each), p50 and p99 of each; beside them the same calls made with the CLI,
// one process per call, --cli-calls times.
//
// --dir measures a store an earlier run kept (--keep prints it) instead of
// writing one; --entries must be the number it was written with.
//
//	curatorbench mcp [--entries 100000] [--calls 1000] [--cli-calls 50] [--curator BIN] [--keep | --dir DIR]
func benchMCP(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	entries := fs.Int("entries", 100000, "inbox entries in the store")
	calls := fs.Int("calls", 1000, "timed calls of each tool")
	cliCalls := fs.Int("cli-calls", 50, "timed CLI commands of each kind")
	bin := fs.String("curator", "", "curator binary (default: built from this module)")
	keep := fs.Bool("keep", false, "keep the temporary folder")
	kept := fs.String("dir", "", "a store kept by an earlier run with these --entries (default: write one)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *entries < mcpSpan || *calls < 1 || *cliCalls < 1 {
		return fmt.Errorf("give --entries ≥ %d, --calls ≥ 1 and --cli-calls ≥ 1", mcpSpan)
	}
	tmp, curator, done, err := benchFolder("mcp", *keep, *bin, stdout)
	if err != nil {
		return err
	}
	defer done()

	// The store: a day of inbox entries, written and committed directly.
	from := hour0
	if *kept != "" {
		// A kept store's day is the one it was written on.
		if from, err = keptDay(*kept, *entries); err != nil {
			return err
		}
	}
	to := from.Add(24 * time.Hour)
	g := mcpGen{n: *entries, from: from, step: to.Sub(from) / time.Duration(*entries+1)}
	dir := *kept
	if dir == "" {
		dir = filepath.Join(tmp, "work")
		s, err := newBenchStore(dir)
		if err != nil {
			return err
		}
		start := time.Now()
		if err := generateInbox(s, 1, *entries, from, to); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "mcp: a store of %d inbox entries (written in %.1f s)\n", *entries, time.Since(start).Seconds())
	} else {
		fmt.Fprintf(stdout, "mcp: the kept store %s of %d inbox entries\n", dir, *entries)
	}
	// The memory index, as the hourly pass keeps it (untimed): one windowed
	// listing learns every file.
	if _, err := timeCmd(dir, nil, curator, "--quiet", "memory", "list", "--status", "inbox",
		"--from", from.Format(time.RFC3339Nano), "--to", from.Add(time.Second).Format(time.RFC3339Nano), "--limit", "1"); err != nil {
		return err
	}

	// The server, and one client session for every call.
	ctx := context.Background()
	srv, err := startMCP(ctx, curator, dir)
	if err != nil {
		return err
	}
	defer srv.cs.Close()
	cs, connect := srv.cs, srv.connect

	// The first listing is timed apart: it may read what later ones reuse.
	first, err := mcpList(ctx, cs, g.window(0))
	if err != nil {
		return err
	}
	var lists, updates []time.Duration
	for i := 1; i <= *calls; i++ {
		took, err := mcpList(ctx, cs, g.window(i))
		if err != nil {
			return err
		}
		lists = append(lists, took)
	}
	// The whole inbox at offset 0, a new snapshot each time: the
	// snapshot's cost grows with the window, the page's must not.
	var wholes []time.Duration
	for range 5 {
		took, err := mcpWhole(ctx, cs, *entries)
		if err != nil {
			return err
		}
		wholes = append(wholes, took)
	}
	for i := 0; i < *calls; i++ {
		id, v := g.update(i)
		took, err := mcpUpdate(ctx, cs, id, v)
		if err != nil {
			return err
		}
		updates = append(updates, took)
	}
	rss, err := srv.close()
	if err != nil {
		return err
	}

	// The CLI, one process per call, on the same kinds of windows and
	// entries (continuing where the server left off).
	var cliLists, cliUpdates []time.Duration
	for i := 0; i < *cliCalls; i++ {
		w := g.window(*calls + 1 + i)
		m, err := timeCmd(dir, nil, curator, "--json", "memory", "list", "--status", "inbox",
			"--from", w.from.Format(time.RFC3339Nano), "--to", w.to.Format(time.RFC3339Nano), "--limit", "100", "--offset", strconv.Itoa(w.offset))
		if err != nil {
			return err
		}
		cliLists = append(cliLists, m.Wall)
	}
	for i := 0; i < *cliCalls; i++ {
		id, v := g.update(*calls + i)
		m, err := timeCmd(dir, nil, curator, "--quiet", "memory", "update", id, "--set", "importance_factors.proximity="+v)
		if err != nil {
			return err
		}
		cliUpdates = append(cliUpdates, m.Wall)
	}

	fmt.Fprintf(stdout, "  curator mcp started and initialized in %.1f ms; first list_entries %.1f ms; peak RSS %.1f MB\n",
		pipeMS(connect), pipeMS(first), mb(rss))
	row := func(name string, n int, d []time.Duration, note string) {
		fmt.Fprintf(stdout, "  %-44s %5d calls  p50 %8.2f ms  p99 %8.2f ms%s\n", name, n, pipeMS(percentile(d, 50)), pipeMS(percentile(d, 99)), note)
	}
	row("list_entries, 100 of a 150-entry window", len(lists), lists, "   (target p99 ≤ 15 ms)")
	row("  curator --json memory list --limit 100", len(cliLists), cliLists, "")
	fmt.Fprintf(stdout, "  %-44s %5d calls  first %6.1f ms, then p50 %8.2f ms\n", "list_entries, 100 of the whole inbox", len(wholes),
		pipeMS(wholes[0]), pipeMS(percentile(wholes[1:], 50)))
	row("update_long_term (one commit)", len(updates), updates, "")
	row("  curator memory update --set (one commit)", len(cliUpdates), cliUpdates, "")
	return nil
}

// keptDay is the start of the day a kept store of n entries was written
// for: its first entry is ingested one step after it.
func keptDay(dir string, n int) (time.Time, error) {
	data, err := os.ReadFile(filepath.Join(dir, ".curator", "memory", "inbox", "m0000001.md"))
	if err != nil {
		return time.Time{}, fmt.Errorf("kept store: %w", err)
	}
	_, v, ok := strings.Cut(string(data), "\ningestion_time: ")
	if !ok {
		return time.Time{}, fmt.Errorf("kept store: m0000001 has no ingestion_time")
	}
	v, _, _ = strings.Cut(v, "\n")
	first, err := time.Parse(time.RFC3339Nano, strings.Trim(v, `'"`))
	if err != nil {
		return time.Time{}, fmt.Errorf("kept store: m0000001: %w", err)
	}
	return first.Truncate(24 * time.Hour), nil
}

// mcpSpan is how many entries each listed window holds.
const mcpSpan = 150

// mcpGen knows the generated store: entry i (from 0) is m%07d of i+1,
// ingested at from + (i+1)·step.
type mcpGen struct {
	n    int
	from time.Time
	step time.Duration
}

// mcpWindow is one listing: the entries ingested in [from, to), a page
// of 100 from offset.
type mcpWindow struct {
	from, to time.Time
	offset   int
}

// window is the i-th listing: mcpSpan entries starting at an entry spread
// over the store, from an offset of 0 to 49. The window's start is also
// moved back by i+1 ns (far less than the step between two entries, which
// is 0.86 s in a day of 100,000), so no two listings are the same query and
// each reads the store.
func (g mcpGen) window(i int) mcpWindow {
	first := int(int64(i) * 7919 % int64(g.n-mcpSpan+1))
	return mcpWindow{
		from:   g.from.Add(g.step*time.Duration(first+1) - time.Duration(i+1)),
		to:     g.from.Add(g.step * time.Duration(first+1+mcpSpan)),
		offset: i % (mcpSpan - 100 + 1),
	}
}

// update is the i-th update: one of ten entries spread over the store,
// its proximity 0.25 and 0.75 in turn (never the generated value, which is
// at least 0.3 and written with three decimals, on the first turn).
func (g mcpGen) update(i int) (id, value string) {
	id = fmt.Sprintf("m%07d", 1+(i%10)*(g.n/10))
	if (i/10)%2 == 0 {
		return id, "0.25"
	}
	return id, "0.75"
}

// mcpList calls list_entries on a window, checks it got a full page and
// returns the call's round trip.
func mcpList(ctx context.Context, cs *mcp.ClientSession, w mcpWindow) (time.Duration, error) {
	return mcpPage(ctx, cs, map[string]any{"status": "inbox",
		"ingestion_time_start": w.from.Format(time.RFC3339Nano), "ingestion_time_end": w.to.Format(time.RFC3339Nano),
		"limit": 100, "offset": w.offset}, mcpSpan)
}

// mcpWhole lists the first page of the whole inbox of n entries, checks
// it and returns the call's round trip.
func mcpWhole(ctx context.Context, cs *mcp.ClientSession, n int) (time.Duration, error) {
	return mcpPage(ctx, cs, map[string]any{"status": "inbox", "limit": 100}, n)
}

// mcpPage calls list_entries with args, checks it got a page of 100 of
// total entries and returns the call's round trip.
func mcpPage(ctx context.Context, cs *mcp.ClientSession, args map[string]any, total int) (time.Duration, error) {
	res, took, err := mcpCall(ctx, cs, "list_entries", args)
	if err != nil {
		return 0, err
	}
	var page struct {
		Entries []json.RawMessage `json:"entries"`
		Total   int               `json:"total"`
	}
	if err := json.Unmarshal(res, &page); err != nil {
		return 0, err
	}
	if len(page.Entries) != 100 || page.Total != total {
		return 0, fmt.Errorf("list_entries %v: %d entries of %d, want 100 of %d", args, len(page.Entries), page.Total, total)
	}
	return took, nil
}

// mcpUpdate sets an entry's proximity, checks the call committed and
// returns the call's round trip.
func mcpUpdate(ctx context.Context, cs *mcp.ClientSession, id, value string) (time.Duration, error) {
	v, _ := strconv.ParseFloat(value, 64)
	res, took, err := mcpCall(ctx, cs, "update_long_term", map[string]any{"id": id, "patch": map[string]any{"importance_factors": map[string]any{"proximity": v}}})
	if err != nil {
		return 0, err
	}
	var up struct {
		Commit string `json:"commit"`
	}
	if err := json.Unmarshal(res, &up); err != nil || up.Commit == "" {
		return 0, fmt.Errorf("update_long_term %s: no commit in %s", id, res)
	}
	return took, nil
}

// mcpCall calls a tool and returns its structured result and the call's
// round trip: from sending the request to holding the decoded result, as a
// client waits for it (the result's checks after it are not counted). A
// tool error is an error.
func mcpCall(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) (json.RawMessage, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	start := time.Now()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	took := time.Since(start)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	if r.IsError {
		var msg string
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				msg += t.Text
			}
		}
		return nil, 0, fmt.Errorf("%s: tool error: %s", name, msg)
	}
	res, err := json.Marshal(r.StructuredContent)
	return res, took, err
}
