package mcpcmd

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
)

// Server is curator's MCP server over one store.
type Server struct {
	mcp *mcp.Server
	// f carries the save options of the process (crash tests, timing);
	// g the global flags every tool runs with (the store, --lock-timeout).
	f      *cmdutil.Factory
	g      cmdutil.Globals
	pages  *memory.Pages
	search searchIndex
}

// NewServer builds the server with every tool, resource and prompt.
func NewServer(f *cmdutil.Factory, g cmdutil.Globals) (*Server, error) {
	s := &Server{f: f, g: g, pages: memory.OpenPages(g.Store)}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "curator", Title: "curator", Version: version()}, &mcp.ServerOptions{
		Instructions: "curator keeps what agents learn as files in git: memories (inbox → confirmed/trash), a playbook of " +
			"bullets curated from reflections, and pipeline handoffs. Every tool that changes something makes one commit.",
	})
	s.addMemoryTools()
	s.addPlaybookTools()
	s.addFeedbackTools()
	s.addPipelineTools()
	s.addCurationTools()
	s.addPipelineModeTools()
	s.addResources()
	s.addPrompts()
	return s, nil
}

// Close releases what the server holds.
func (s *Server) Close() { s.pages.Close() }

// version is the module version the binary was built from.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}

// env is the environment of one tool call: the server's globals (the
// store, the lock wait), the save options of the process, and the command
// line its commits record, naming the tool. Nothing is printed: the tool
// returns its use-case's report.
func (s *Server) env(tool string) cmdutil.Env {
	f := &cmdutil.Factory{IO: cmdutil.Streams(strings.NewReader(""), io.Discard, io.Discard), CommandLine: "curator mcp " + tool}
	if s.f != nil {
		f.SaveOptions = s.f.SaveOptions
	}
	return f.EnvWith(s.g)
}

// agentEnv is env for a call that acts for an agent: --agent or
// CURATOR_AGENT of `curator mcp`, else the name the call's MCP client
// gave itself.
func (s *Server) agentEnv(ctx context.Context, tool string) cmdutil.Env {
	env := s.env(tool)
	if env.Globals.Agent == "" {
		env.Globals.Agent = clientOf(ctx)
	}
	return env
}

// Result is a tool's structured answer: the report of the use-case that
// did the work, which the SDK marshals once into the call's structured
// content and its text (the JSON object the command prints with --json).
type Result = any

// asResult is a typed report as a tool's structured result: a value
// marshalled by the SDK, not printed output read back. Structured content
// is a JSON object, so a report must marshal as one.
func asResult(tool string, rep any) (Result, error) {
	v := reflect.ValueOf(rep)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if k := v.Kind(); k != reflect.Struct && (k != reflect.Map || v.IsNil()) {
		return nil, fmt.Errorf("%s: the report is not a JSON object (%T)", tool, rep)
	}
	return rep, nil
}

// toolError is a failed call's message, with what its exit status means.
func toolError(err error) error {
	switch cmdutil.ExitCode(err) {
	case cmdutil.ExitUsage:
		return fmt.Errorf("invalid arguments: %v", err)
	case cmdutil.ExitBlocked:
		return fmt.Errorf("refused: %v", err)
	case cmdutil.ExitLocked:
		return fmt.Errorf("busy: %v", err)
	case cmdutil.ExitDenied:
		return fmt.Errorf("permission denied: %v", err)
	}
	return err
}

// tool registers a tool whose handler returns a Result.
func tool[In any](s *Server, name, description string, h func(context.Context, In) (Result, error)) {
	mcp.AddTool(s.mcp, &mcp.Tool{Name: name, Description: description}, func(ctx context.Context, req *mcp.CallToolRequest, in In) (_ *mcp.CallToolResult, _ Result, err error) {
		// A bug in one call is that call's error; the server goes on.
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("%s: internal error: %v", name, p)
			}
		}()
		res, err := h(withClient(ctx, req), in)
		if err != nil {
			return nil, nil, err
		}
		return nil, res, nil
	})
}

// clientKey holds the name of the MCP client a call came from in its
// context.
type clientKey struct{}

// withClient is ctx carrying the name the client of req gave itself (its
// initialize request's clientInfo, or the call's own client info).
func withClient(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	name := ""
	if req != nil && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			name = p.ClientInfo.Name
		}
	}
	if name == "" && req != nil && req.Params != nil {
		if info, ok := req.Params.GetMeta()[mcp.MetaKeyClientInfo].(map[string]any); ok {
			name, _ = info["name"].(string)
		}
	}
	return context.WithValue(ctx, clientKey{}, name)
}

// clientOf is the MCP client's name of a call's context ("" none).
func clientOf(ctx context.Context) string {
	name, _ := ctx.Value(clientKey{}).(string)
	return name
}
