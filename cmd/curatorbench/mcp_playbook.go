package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/curator-dev/curator/curate/playbook"
)

// benchMCPPlaybook measures query_playbook of `curator mcp` on a store
// that holds a playbook (the large store of `context --scale`), driven by
// the MCP Go SDK's client over stdio: the first call timed apart (it reads
// the playbook), then --calls queries of --limit bullets, each by a
// sentence of the source playbook (in turn), p50 and p99; then one query
// after another process's change (`context curate` of one reflection, as
// a session beside the server would), and the CLI's `context query` of
// the same texts, one process each, --cli-calls times. With --varied N,
// N more queries follow, each two of the source's sentences put together,
// so that the texts vary as a long-running agent's do: the server's peak RSS
// then shows what it keeps of the bullets it read.
//
//	curatorbench mcp-playbook --dir /work/bench-100k-bullets [--calls 1000] [--cli-calls 9] [--varied 2000] [--curator BIN]
func benchMCPPlaybook(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("mcp-playbook", flag.ContinueOnError)
	dir := fs.String("dir", "", "the store (a playbook built by `curatorbench context --scale --large-dir`)")
	calls := fs.Int("calls", 1000, "timed query_playbook calls")
	cliCalls := fs.Int("cli-calls", 9, "timed `context query` commands")
	limit := fs.Int("limit", 10, "bullets each query asks for")
	source := fs.String("source", "../shared/data/appworld_online_trained_playbook.txt", "ACE playbook whose sentences are the queries")
	bin := fs.String("curator", "", "curator binary (default: built from this module)")
	varied := fs.Int("varied", 0, "queries of two sentences put together, after the others")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *calls < 1 {
		return fmt.Errorf("give --dir (a store with a playbook) and --calls ≥ 1")
	}
	seedData, err := os.ReadFile(*source)
	if err != nil {
		return fmt.Errorf("source playbook: %w (pass --source)", err)
	}
	seed, err := playbook.ParseACE(seedData)
	if err != nil {
		return err
	}
	var texts []string
	for _, b := range seed {
		texts = append(texts, playbook.Sentences(b.Content)...)
	}
	if len(texts) == 0 {
		return fmt.Errorf("%s: no sentences", *source)
	}
	_, curator, done, err := benchFolder("mcp-playbook", false, *bin, stdout)
	if err != nil {
		return err
	}
	defer done()

	ctx := context.Background()
	srv, err := startMCP(ctx, curator, *dir)
	if err != nil {
		return err
	}
	defer srv.cs.Close()
	cs, connect := srv.cs, srv.connect
	query := func(i int) (time.Duration, error) {
		var text string
		if i >= 0 {
			text = texts[i%len(texts)]
		} else { // varied: two sentences
			text = texts[-i%len(texts)] + " " + texts[(-i*7+3)%len(texts)]
		}
		res, took, err := mcpCall(ctx, cs, "query_playbook", map[string]any{"text": text, "limit": *limit})
		if err != nil {
			return 0, err
		}
		var rep struct{ Bullets []json.RawMessage }
		if err := json.Unmarshal(res, &rep); err != nil {
			return 0, fmt.Errorf("query_playbook: %w", err)
		}
		return took, nil
	}
	first, err := query(0)
	if err != nil {
		return err
	}
	var warm []time.Duration
	for i := 1; i <= *calls; i++ {
		d, err := query(i)
		if err != nil {
			return err
		}
		warm = append(warm, d)
	}
	// Another process changes the playbook: the next call reads it again.
	refl := fmt.Sprintf("---\nid: refl-mcp-bench-%d\nlessons:\n  - content: %s Keep the cursor of each page.\n    category: api\n    confidence: 0.8\n---\n",
		time.Now().UnixNano(), texts[0])
	path := *dir + "/mcp-bench-reflection.md"
	if err := os.WriteFile(path, []byte(refl), 0o644); err != nil {
		return err
	}
	defer os.Remove(path)
	for _, args := range [][]string{{"--quiet", "context", "reflect", path}, {"--quiet", "context", "curate"}} {
		if _, err := timeCmd(*dir, nil, curator, args...); err != nil {
			return err
		}
	}
	changed, err := query(*calls + 1)
	if err != nil {
		return err
	}
	time.Sleep(2100 * time.Millisecond) // past the racy window of the folders' clock
	settled, err := query(*calls + 2)
	if err != nil {
		return err
	}
	var after []time.Duration
	for i := 0; i < 100; i++ {
		d, err := query(*calls + 3 + i)
		if err != nil {
			return err
		}
		after = append(after, d)
	}
	var mixed []time.Duration
	for i := 1; i <= *varied; i++ {
		d, err := query(-i)
		if err != nil {
			return err
		}
		mixed = append(mixed, d)
	}
	rss, err := srv.close()
	if err != nil {
		return err
	}
	var cli []time.Duration
	for i := 0; i < *cliCalls; i++ {
		m, err := timeCmd(*dir, nil, curator, "--json", "context", "query", "--text", texts[i%len(texts)], "--limit", strconv.Itoa(*limit))
		if err != nil {
			return err
		}
		cli = append(cli, m.Wall)
	}

	fmt.Fprintf(stdout, "  curator mcp started and initialized in %.1f ms; first query_playbook %.1f ms; peak RSS %.1f MB\n",
		pipeMS(connect), pipeMS(first), mb(rss))
	row := func(name string, d []time.Duration, note string) {
		fmt.Fprintf(stdout, "  %-52s %5d calls  p50 %8.2f ms  p99 %8.2f ms%s\n", name, len(d), pipeMS(percentile(d, 50)), pipeMS(percentile(d, 99)), note)
	}
	row(fmt.Sprintf("query_playbook --text … --limit %d", *limit), warm, "   (target p99 ≤ 15 ms)")
	fmt.Fprintf(stdout, "  the call after another process's curate %.1f ms; the call after its folders settled %.1f ms\n", pipeMS(changed), pipeMS(settled))
	row("query_playbook after that", after, "")
	if len(mixed) > 0 {
		row("query_playbook, two sentences put together", mixed, "")
	}
	if len(cli) > 0 {
		row(fmt.Sprintf("  curator --json context query --limit %d", *limit), cli, "")
	}
	return nil
}
