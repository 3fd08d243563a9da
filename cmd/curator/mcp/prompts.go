package mcpcmd

import (
	"bytes"
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	contextcmd "github.com/curator-dev/curator/cmd/curator/context"
	"github.com/curator-dev/curator/curate/playbook"
)

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{Name: "curate_reflection", Title: "Curate a reflection",
		Description: "The curation prompt for a pending reflection and its nearest playbook bullets, as `curator context prompt` " +
			"prints it: the model answers with curation actions for `curator context apply`.",
		Arguments: []*mcp.PromptArgument{{Name: "reflection_id", Description: "the pending reflection (default: the oldest)"}},
	}, s.curateReflectionPrompt)
}

func (s *Server) curateReflectionPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	id := req.Params.Arguments["reflection_id"]
	var out bytes.Buffer
	// The prompt's text, not `context prompt --json`'s document.
	env := s.env("curate_reflection", &out)
	env = env.WithOutput(env.IO, false)
	err := contextcmd.Prompt(&contextcmd.PromptOptions{Env: env, ReflectionID: id,
		Settings: playbook.DefaultSettings()})
	if err != nil {
		return nil, toolError(err)
	}
	desc := "Curate the oldest pending reflection"
	if id != "" {
		desc = "Curate reflection " + id
	}
	return &mcp.GetPromptResult{Description: desc, Messages: []*mcp.PromptMessage{
		{Role: "user", Content: &mcp.TextContent{Text: out.String()}},
	}}, nil
}
