package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// mcpClientDir is the client written with the MCP TypeScript SDK.
const mcpClientDir = "testdata/mcpclient"

// nodeClient finds node and the client's installed packages; without them
// the test is skipped, except in CI (CI set), where it must run.
func nodeClient(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	missing := "node is not installed"
	if err == nil {
		if _, err = os.Stat(filepath.Join(mcpClientDir, "node_modules/@modelcontextprotocol/sdk/package.json")); err == nil {
			return node
		}
		missing = "cmd/curator/" + mcpClientDir + "/node_modules holds no SDK"
	}
	const install = "apt-get install nodejs npm; npm ci --prefix cmd/curator/" + mcpClientDir
	if os.Getenv("CI") != "" {
		t.Fatalf("%s, and CI is set: the TypeScript SDK client test must run (%s)", missing, install)
	}
	t.Skipf("%s (%s)", missing, install)
	return ""
}

// nodeSummary is what testdata/mcpclient/client.mjs prints.
type nodeSummary struct {
	SDK    string `json:"sdk"`
	Server struct {
		Name string `json:"name"`
	} `json:"server"`
	Calls        int      `json:"calls"`
	Tools        []string `json:"tools"`
	MissingTools []string `json:"missing_tools"`
	Added        []struct {
		ID        string `json:"id"`
		Path      string `json:"path"`
		HasCommit bool   `json:"has_commit"`
		Error     string `json:"error"`
	} `json:"added"`
	Pages []struct {
		Offset   int      `json:"offset"`
		Limit    int      `json:"limit"`
		Total    int      `json:"total"`
		Snapshot string   `json:"snapshot"`
		IDs      []string `json:"ids"`
		Bodies   int      `json:"bodies"`
		IsError  bool     `json:"is_error"`
		Message  string   `json:"message"`
	} `json:"pages"`
	Updated   nodeChange `json:"updated"`
	Confirmed struct {
		Status            string             `json:"status"`
		Maturity          string             `json:"maturity"`
		Body              string             `json:"body"`
		ImportanceFactors map[string]float64 `json:"importance_factors"`
	} `json:"confirmed"`
	Deleted nodeChange `json:"deleted"`
	Invalid struct {
		IsError bool   `json:"is_error"`
		Message string `json:"message"`
	} `json:"invalid"`
	InboxAfter struct {
		Total int      `json:"total"`
		IDs   []string `json:"ids"`
	} `json:"inbox_after"`
	Search struct {
		IDs     []string `json:"ids"`
		Status  string   `json:"status"`
		Message string   `json:"message"`
	} `json:"search"`
	Closed struct {
		ID      string `json:"id"`
		Outcome string `json:"outcome"`
		Note    string `json:"note"`
		Commit  string `json:"commit"`
		Message string `json:"message"`
	} `json:"closed"`
	Playbook struct {
		Reflection string `json:"reflection"`
		Applied    struct {
			Commit  string   `json:"commit"`
			Merged  []string `json:"merged"`
			Actions []string `json:"actions"`
			Message string   `json:"message"`
		} `json:"applied"`
		Injected struct {
			File    string `json:"file"`
			Bullets int    `json:"bullets"`
			Changed bool   `json:"changed"`
			Message string `json:"message"`
		} `json:"injected"`
		Used struct {
			Commit  string   `json:"commit"`
			Bullets []string `json:"bullets"`
			Message string   `json:"message"`
		} `json:"used"`
	} `json:"playbook"`
	Pipeline []struct {
		Mode    string `json:"mode"`
		Status  string `json:"status"`
		Commit  string `json:"commit"`
		Message string `json:"message"`
	} `json:"pipeline"`
}

// nodeChange is the answer of a mutating tool, or its error.
type nodeChange struct {
	ID      string `json:"id"`
	Path    string `json:"path"`
	Commit  string `json:"commit"`
	IsError bool   `json:"is_error"`
	Message string `json:"message"`
}

// TestMCPNodeClient runs a client written with the MCP TypeScript SDK
// (another implementation than the server's) against `curator mcp`: it
// lists the tools, adds memories, pages through a window, promotes one,
// trashes one with a reason and makes an invalid call; then applies a
// curation answer, writes the playbook block and holds a pipeline.
func TestMCPNodeClient(t *testing.T) {
	node := nodeClient(t)
	dir, _ := pipelineStore(t)
	commitsBefore := commitCount(t, dir)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", dir)
	cmd.Dir = mcpClientDir
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs: %v\nstdout: %s\nstderr: %s", err, out, stderr.Bytes())
	}
	var s nodeSummary
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("the summary is not JSON: %v\n%s\nstderr: %s", err, out, stderr.Bytes())
	}

	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	data, err := os.ReadFile(filepath.Join(mcpClientDir, "package.json"))
	if err != nil || json.Unmarshal(data, &pkg) != nil {
		t.Fatalf("package.json: %v", err)
	}
	if want := pkg.Dependencies["@modelcontextprotocol/sdk"]; s.SDK != want {
		t.Errorf("the client ran SDK %q, package.json pins %q (run npm ci --prefix cmd/curator/%s)", s.SDK, want, mcpClientDir)
	}
	if s.Server.Name != "curator" {
		t.Errorf("server name %q", s.Server.Name)
	}
	if len(s.MissingTools) > 0 {
		t.Errorf("tools missing: %v (listed: %v)", s.MissingTools, s.Tools)
	}

	if len(s.Added) != 5 {
		t.Fatalf("added %d memories, want 5: %s", len(s.Added), out)
	}
	for i, a := range s.Added {
		if id := "node-" + string(rune('0'+i)); a.ID != id || a.Path != "memory/inbox/"+id+".md" || !a.HasCommit || a.Error != "" {
			t.Errorf("add_memory %d: %+v", i, a)
		}
	}

	// Pages of two: each entry once, in ingestion order, without bodies,
	// all from the first page's snapshot.
	var paged []string
	for i, p := range s.Pages {
		if p.IsError {
			t.Fatalf("page %d: tool error %s", i, p.Message)
		}
		if p.Offset != 2*i || p.Limit != 2 || p.Total != 5 || p.Bodies != 0 || p.Snapshot == "" || p.Snapshot != s.Pages[0].Snapshot {
			t.Errorf("page %d: %+v", i, p)
		}
		paged = append(paged, p.IDs...)
	}
	if want := []string{"node-0", "node-1", "node-2", "node-3", "node-4"}; !slices.Equal(paged, want) || len(s.Pages) != 3 {
		t.Errorf("paged %v in %d pages, want %v in 3", paged, len(s.Pages), want)
	}

	if u := s.Updated; u.IsError || u.ID != "node-1" || u.Path != "memory/confirmed/fact/node-1.md" || u.Commit == "" {
		t.Errorf("update_long_term: %+v", u)
	}
	if c := s.Confirmed; c.Status != "confirmed" || c.Maturity != "confirmed" || c.Body != "Body of fact 1.\n" || c.ImportanceFactors["proximity"] != 0.95 {
		t.Errorf("get_memory after the update: %+v", c)
	}
	if d := s.Deleted; d.IsError || d.ID != "node-2" || d.Path != "memory/trash/node-2.md" || d.Commit == "" {
		t.Errorf("delete_memory: %+v", d)
	}
	if !s.Invalid.IsError || !strings.Contains(s.Invalid.Message, "status") {
		t.Errorf("an invalid status: %+v, want a tool error naming status", s.Invalid)
	}
	if a := s.InboxAfter; a.Total != 3 || !slices.Equal(a.IDs, []string{"node-0", "node-3", "node-4"}) {
		t.Errorf("the inbox after the error: %+v", a)
	}

	// What the store holds.
	mem := filepath.Join(dir, ".curator/memory")
	for path, want := range map[string][]string{
		"confirmed/fact/node-1.md": {"status: confirmed", "maturity: confirmed", "proximity: 0.95"},
		"trash/node-2.md":          {"reason: duplicate of node-0"},
		"inbox/node-0.md":          {"status: inbox", "brief: fact 0 written by a node client", "author: node-agent"},
	} {
		data, err := os.ReadFile(filepath.Join(mem, path))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		for _, w := range want {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s does not hold %q:\n%s", path, w, data)
			}
		}
	}
	for _, gone := range []string{"inbox/node-1.md", "inbox/node-2.md"} {
		if _, err := os.Stat(filepath.Join(mem, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", gone, err)
		}
	}
	// The confirmed memory found by search, its window closed by a reviewer.
	if sr := s.Search; sr.Status != "confirmed" || len(sr.IDs) == 0 || sr.IDs[0] != "node-1" {
		t.Errorf("search_memory: %+v", sr)
	}
	if c := s.Closed; c.ID != "node-1" || c.Outcome != "held" || c.Note != "checked by the node client" || len(c.Commit) != 40 {
		t.Errorf("close_observation: %+v", c)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, ".curator/memory/confirmed/fact/node-1.md")); !strings.Contains(string(data), "outcome: held") {
		t.Errorf("node-1 after close_observation:\n%s", data)
	}
	// The playbook and pipeline tools of an agent without a shell.
	if p := s.Playbook; p.Reflection != "refl-node" || len(p.Applied.Commit) != 40 || !slices.Equal(p.Applied.Merged, []string{"refl-node"}) ||
		len(p.Applied.Actions) != 1 || !strings.HasPrefix(p.Applied.Actions[0], "new_bullet VERIF-") {
		t.Errorf("add_reflection, apply_curation: %+v", p)
	}
	if u := s.Playbook.Used; len(u.Commit) != 40 || len(u.Bullets) != 1 || !strings.HasSuffix(u.Bullets[0], " helpful 1") {
		t.Errorf("record_usage: %+v", u)
	}
	if i := s.Playbook.Injected; i.File != "AGENTS.md" || i.Bullets != 1 || !i.Changed {
		t.Errorf("inject_playbook: %+v", i)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "AGENTS.md")); err != nil || !strings.Contains(string(data), "Run the node client after every change to the MCP tools.") {
		t.Errorf("AGENTS.md: %v\n%s", err, data)
	}
	if p := s.Pipeline; len(p) != 2 || p[0].Mode != "hold" || p[0].Status != "on-hold" || p[1].Mode != "continue" ||
		p[1].Status != "in-progress" || p[0].Commit == "" || p[1].Commit == "" {
		t.Errorf("pipeline_hold, pipeline_continue: %+v", p)
	}

	// One commit per mutating call: five adds, the update, the delete, the
	// window closed, the reflection, the answer, the use recorded, the hold
	// and the continue (the block is written, not committed).
	if commitsBefore >= 0 {
		if got := commitCount(t, dir); got != commitsBefore+13 {
			t.Errorf("%d commits after the calls, want %d + 13", got, commitsBefore)
		}
	}
}

// commitCount is the number of commits in the store's repository, or -1
// without git.
func commitCount(t *testing.T, dir string) int {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		return -1
	}
	out, err := exec.Command("git", "-C", dir, "rev-list", "--count", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-list: %v", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("git rev-list: %q: %v", out, err)
	}
	return n
}
