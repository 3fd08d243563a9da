package mcpcmd

import (
	"context"
	"fmt"
	"os"

	"github.com/curator-dev/curator/curate/playbook"
)

// ApplyCurationArgs are apply_curation's parameters (those of `context
// apply`, the document given as text).
type ApplyCurationArgs struct {
	Answer       string `json:"answer" jsonschema:"the curation_actions JSON document: the answer to the curate_reflection prompt"`
	ReflectionID string `json:"reflection_id,omitempty" jsonschema:"the pending reflection the answer is for (default: the answer's own reflection_id); it moves to merged/"`
	DryRun       bool   `json:"dry_run,omitempty" jsonschema:"report the actions and change nothing (default false: the answer is applied in one commit)"`
}

// InjectPlaybookArgs are inject_playbook's parameters (those of `context
// inject`).
type InjectPlaybookArgs struct {
	File     string `json:"file,omitempty" jsonschema:"the markdown file to write the block into, inside the server's working directory (default CLAUDE.md; AGENTS.md for other agents)"`
	Category string `json:"category,omitempty" jsonschema:"only bullets of this category"`
	Top      *int   `json:"top,omitempty" jsonschema:"how many bullets (default 20)"`
	// For is the task the bullets are chosen for (`context inject --for`).
	For *string `json:"for,omitempty" jsonschema:"the task: write the bullets most relevant to it (by similarity, as pipeline briefs choose them) instead of the top bullets by rank"`
}

func (s *Server) addCurationTools() {
	tool(s, "apply_curation", "Apply the answer to the curate_reflection prompt: a curation_actions JSON document, checked whole "+
		"first (an unknown action or bullet, a merge without merged_content, a secret refuses it and nothing is written), then "+
		"carried out in one commit, the reflections it answers moved to merged/ (as `curator context apply --json`). "+
		"dry_run reports the actions and changes nothing.", s.applyCuration)
	tool(s, "inject_playbook", fmt.Sprintf("Write the top playbook bullets (default %d; those awaiting review left out) between "+
		"the curator markers of a markdown file of the server's working directory (default %s), the rest of the file kept "+
		"byte for byte; the file is written, not committed, and left alone when it already holds them "+
		"(as `curator context inject --json`).", playbook.DefaultInjectTop, playbook.DefaultInjectFile), s.injectPlaybook)
}

func (s *Server) applyCuration(ctx context.Context, a ApplyCurationArgs) (Result, error) {
	st, saving, err := s.playbookStore(ctx, "apply_curation")
	if err != nil {
		return nil, err
	}
	return playbookResult(playbook.Apply(ctx, st, playbook.ApplyRequest{Name: "answer", Data: []byte(a.Answer),
		ReflectionID: a.ReflectionID, DryRun: a.DryRun, Saving: saving}))
}

func (s *Server) injectPlaybook(ctx context.Context, a InjectPlaybookArgs) (Result, error) {
	req := playbook.InjectRequest{File: a.File, Top: playbook.DefaultInjectTop, Category: a.Category}
	if a.Top != nil {
		req.Top = *a.Top
	}
	if a.For != nil {
		req.For, req.ForSet = *a.For, true
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	req.Inside = wd
	st, _, err := s.playbookStore(ctx, "inject_playbook")
	if err != nil {
		return nil, err
	}
	return playbookResult(playbook.InjectFile(ctx, st, req))
}
