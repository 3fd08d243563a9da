package mcpcmd

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/curator-dev/curator/curate/playbook"
)

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{Name: "curate_reflection", Title: "Curate a reflection",
		Description: "The curation prompt for a pending reflection and its nearest playbook bullets, as `curator context prompt` " +
			"prints it: the model answers with curation actions, which the tool apply_curation (or `curator context apply`) carries out.",
		Arguments: []*mcp.PromptArgument{{Name: "reflection_id", Description: "the pending reflection (default: the oldest)"}},
	}, s.curateReflectionPrompt)
}

func (s *Server) curateReflectionPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	id := req.Params.Arguments["reflection_id"]
	st, _, err := s.playbookStore(ctx, "curate_reflection")
	if err != nil {
		return nil, err
	}
	rep, err := playbook.Prompt(ctx, st, playbook.PromptRequest{ReflectionID: id, Settings: playbook.DefaultSettings()})
	if err != nil {
		return nil, toolError(err)
	}
	desc := "Curate the oldest pending reflection"
	if id != "" {
		desc = "Curate reflection " + id
	}
	return &mcp.GetPromptResult{Description: desc, Messages: []*mcp.PromptMessage{
		{Role: "user", Content: &mcp.TextContent{Text: rep.Prompt}},
	}}, nil
}
