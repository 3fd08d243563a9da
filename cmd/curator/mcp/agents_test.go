package mcpcmd

import (
	"context"
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/templates"
)

// TestAgentFilesNameRealTools checks the files `curator init --agent`
// writes against the server itself: every snake_case name in their code
// spans is one of its tools or prompts, a parameter of a tool, or a field
// of a record or a result the files quote.
func TestAgentFilesNameRealTools(t *testing.T) {
	cs := serverSession(t)
	tools := serverTools(t, cs)
	prompts, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{
		// fields of results and records the files quote
		"brief_path": true, "helpful_bullets": true, "harmful_bullets": true, "left_for_reflection": true, "observations_closed": true,
	}
	for _, p := range prompts.Prompts {
		known[p.Name] = true
	}
	for _, tl := range tools {
		known[tl.Name] = true
		var schema struct {
			Properties map[string]any `json:"properties"`
		}
		raw, _ := json.Marshal(tl.InputSchema)
		json.Unmarshal(raw, &schema)
		for p := range schema.Properties {
			known[p] = true
		}
	}
	codeSpan := regexp.MustCompile("`([^`\n]+)`")
	snake := regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)
	checked := 0
	err = fs.WalkDir(templates.Agents, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(templates.Agents, name)
		if err != nil {
			return err
		}
		for _, m := range codeSpan.FindAllStringSubmatch(string(data), -1) {
			for _, w := range snake.FindAllString(m[1], -1) {
				checked++
				if !known[w] {
					t.Errorf("%s: `%s` names %q, which the MCP server has as no tool or parameter", name, m[1], w)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no names checked: the agent files were not found")
	}
}

// TestAgentsGuideListsEveryTool: the curator section `init --agent
// agents-md` writes into AGENTS.md names every tool the server has, so an
// agent reading it knows all it can do without a shell.
func TestAgentsGuideListsEveryTool(t *testing.T) {
	data, err := fs.ReadFile(templates.Agents, templates.AgentsMDGuide)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range serverTools(t, serverSession(t)) {
		if !strings.Contains(string(data), "`"+tl.Name+"`") {
			t.Errorf("%s does not list the tool %s", templates.AgentsMDGuide, tl.Name)
		}
	}
}

// serverSession is a client connected to a server over a new store.
func serverSession(t *testing.T) *mcp.ClientSession {
	t.Helper()
	s, _, err := mdstore.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := NewServer(&cmdutil.Factory{}, cmdutil.Globals{Store: s.Dir, JSON: true, Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	go srv.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// serverTools are the tools the server of cs lists.
func serverTools(t *testing.T, cs *mcp.ClientSession) []*mcp.Tool {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return tools.Tools
}
