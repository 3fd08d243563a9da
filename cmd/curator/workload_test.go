package main

import (
	"bytes"
	"flag"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// main chooses the collector's setting once per run, from the command and
// its flags; the commands themselves never change it.
func TestWorkloadIsChosenOnceByMain(t *testing.T) {
	dir := memoryStore(t)
	for _, c := range []struct {
		args string
		want workload
	}{
		{"memory list", shortRun},
		{"memory curate --dry-run", memoryPass},
		{"context curate --dry-run", shortRun},
		{"context curate --dry-run --maintenance", maintenance},
		{"context stats", shortRun},
	} {
		var got []workload
		var out, errOut bytes.Buffer
		args := append([]string{"curator", "--store", dir}, strings.Fields(c.args)...)
		if code := runWith(args, cmdutil.Streams(strings.NewReader(""), &out, &errOut), nil, func(w workload) { got = append(got, w) }); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.args, code, errOut.String())
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: workloads %v, want [%v]", c.args, got, c.want)
		}
	}
}

// The MCP server runs under the server's setting, chosen before it
// starts; no call (curate_memory) changes the soft memory limit or the
// collector's pace for the rest of the server's life.
func TestMCPCallsDoNotRetuneTheCollector(t *testing.T) {
	dir := memoryStore(t)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(64 << 20))
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"curate_memory","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_entries","arguments":{}}}`,
	}
	var got []workload
	var out, errOut bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	if code := runWith([]string{"curator", "--store", dir, "mcp"}, cmdutil.Streams(in, &out, &errOut), nil, func(w workload) { got = append(got, w) }); code != 0 {
		t.Fatalf("mcp: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), `"id":2,"result"`) || !strings.Contains(out.String(), `"id":3,"result"`) {
		t.Fatalf("the calls were not answered:\n%s", out.String())
	}
	if len(got) != 1 || got[0] != server {
		t.Errorf("workloads %v, want [%v]", got, server)
	}
	if limit := debug.SetMemoryLimit(-1); limit != 64<<20 {
		t.Errorf("after the calls the soft memory limit is %d, want the 64 MiB it was", limit)
	}
	if pct := debug.SetGCPercent(150); pct != 150 {
		t.Errorf("after the calls GOGC is %d, want the 150 it was", pct)
	}
}

// The processes that keep running (the MCP server, watch with or without
// --memory) read the caches into memory: a mapping is never released.
// Every other command maps them.
func TestOnlyRunsThatEndMapCaches(t *testing.T) {
	for _, memory := range []bool{false, true} {
		fs := flag.NewFlagSet("watch", flag.ContinueOnError)
		fs.Bool("memory", memory, "")
		if w := workloadOf("watch", cli.NewContext(cli.NewApp(), fs, nil)); !w.keepsRunning {
			t.Errorf("watch (--memory %v): workload %+v maps the caches", memory, w)
		}
	}
	if !server.keepsRunning {
		t.Errorf("mcp: workload %+v maps the caches", server)
	}
	for _, w := range []workload{shortRun, memoryPass, maintenance, search} {
		if w.keepsRunning {
			t.Errorf("%s: workload %+v reads the caches into memory", w.name, w)
		}
	}
}
