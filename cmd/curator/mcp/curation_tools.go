package mcpcmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/internal/safepath"
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

// defaultInjectFile and defaultInjectTop are what `context inject` writes
// unless told.
const (
	defaultInjectFile = "CLAUDE.md"
	defaultInjectTop  = 20
)

func (s *Server) addCurationTools() {
	tool(s, "apply_curation", "Apply the answer to the curate_reflection prompt: a curation_actions JSON document, checked whole "+
		"first (an unknown action or bullet, a merge without merged_content, a secret refuses it and nothing is written), then "+
		"carried out in one commit, the reflections it answers moved to merged/ (as `curator context apply --json`). "+
		"dry_run reports the actions and changes nothing.", s.applyCuration)
	tool(s, "inject_playbook", fmt.Sprintf("Write the top playbook bullets (default %d; those awaiting review left out) between "+
		"the curator markers of a markdown file of the server's working directory (default %s), the rest of the file kept "+
		"byte for byte; the file is written, not committed, and left alone when it already holds them "+
		"(as `curator context inject --json`).", defaultInjectTop, defaultInjectFile), s.injectPlaybook)
}

func (s *Server) applyCuration(ctx context.Context, a ApplyCurationArgs) (Result, error) {
	if strings.TrimSpace(a.Answer) == "" {
		return nil, fmt.Errorf("invalid arguments: answer is empty: give the curation_actions document")
	}
	st, saving, err := s.playbookStore(ctx, "apply_curation")
	if err != nil {
		return nil, err
	}
	return playbookResult(playbook.Apply(ctx, st, playbook.ApplyRequest{Name: "answer", Data: []byte(a.Answer),
		ReflectionID: a.ReflectionID, DryRun: a.DryRun, Saving: saving}))
}

func (s *Server) injectPlaybook(ctx context.Context, a InjectPlaybookArgs) (Result, error) {
	req := playbook.InjectRequest{File: a.File, Top: defaultInjectTop}
	if req.File == "" {
		req.File = defaultInjectFile
	}
	if a.Top != nil {
		req.Top = *a.Top
	}
	if a.Category != "" {
		req.Category = playbook.NormCategory(a.Category)
	}
	if a.For != nil {
		if strings.TrimSpace(*a.For) == "" {
			return nil, fmt.Errorf("invalid arguments: for is empty: give the task's text")
		}
		req.For = *a.For
	}
	if err := req.Check(); err != nil {
		return nil, toolError(err)
	}
	st, _, err := s.playbookStore(ctx, "inject_playbook")
	if err != nil {
		return nil, err
	}
	if err := injectTarget(req.File, st.Dir); err != nil {
		return nil, err
	}
	return playbookResult(playbook.InjectFile(ctx, st, req))
}

// injectTarget refuses a file inject_playbook may not write: one that is
// not markdown, lies outside the server's working directory (or leads out
// of it through a symlink), or lies in the store (whose files change only
// through its tools).
func injectTarget(file, store string) error {
	if !strings.EqualFold(filepath.Ext(file), ".md") {
		return fmt.Errorf("invalid arguments: file %q: inject_playbook writes markdown files only (.md), such as CLAUDE.md or AGENTS.md", file)
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, abs)
	}
	if !within(wd, abs) {
		return fmt.Errorf("invalid arguments: file %q: the file must be inside the server's working directory %s", file, wd)
	}
	// the file, and the folder it is written in (made when missing),
	// stay inside through every symlink, and out of the store
	storeReal, err := filepath.EvalSymlinks(store)
	if err != nil {
		return err
	}
	for _, p := range []string{abs, existing(filepath.Dir(abs))} {
		if err := safepath.Inside(wd, p); err != nil {
			return fmt.Errorf("invalid arguments: file %q leads outside the server's working directory %s through a symlink", file, wd)
		}
		real, err := filepath.EvalSymlinks(p)
		if within(store, p) || err == nil && within(storeReal, real) {
			return fmt.Errorf("invalid arguments: file %q is in the store %s, whose files change only through curator's tools", file, store)
		}
	}
	return nil
}

// existing is dir, or its nearest folder that exists.
func existing(dir string) string {
	for {
		if _, err := os.Lstat(dir); err == nil || filepath.Dir(dir) == dir {
			return dir
		}
		dir = filepath.Dir(dir)
	}
}

// within reports whether path is dir or lies under it (both absolute,
// compared as written).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
