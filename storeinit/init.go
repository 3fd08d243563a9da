package storeinit

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/curator-dev/curator/agentsetup"
	"github.com/curator-dev/curator/mdstore"
)

// Request is what `curator init` is asked to do.
type Request struct {
	// Dir is the folder that gets .curator.
	Dir string
	// Agent is the coding agent to set up in Dir ("" none;
	// agentsetup.KnownAgents), MCPServer the name curator's MCP server is
	// registered under ("" is agentsetup.DefaultMCPServer).
	Agent, MCPServer string
	// DryRun works out what would be created or changed and writes nothing.
	DryRun bool
	// MergeDriverOnly only registers the merge driver of an existing store
	// (a fresh clone's repository config lacks it).
	MergeDriverOnly bool
	// Codeowners is the code owner to give the merge log in the
	// repository's CODEOWNERS ("" none): written, not committed.
	Codeowners string
	// Self finds the path of the running curator, for a merge driver git
	// could not find otherwise.
	Self func() (string, error)
	// Tx are the options of the transaction that commits the new store;
	// NoCommit leaves it uncommitted.
	Tx       mdstore.TxOptions
	NoCommit bool
}

// Report is what init did (the --json output of init).
type Report struct {
	Store   string   `json:"store"`
	Created []string `json:"created"`
	Commit  string   `json:"commit"`
	// AgentFiles are the files of the agent, relative to Dir; they are
	// written, never committed.
	AgentFiles []agentsetup.AgentFile `json:"agent_files"`
	DryRun     bool                   `json:"dry_run,omitempty"`
	// Codeowners is the CODEOWNERS file that holds the merge log's entry
	// ("" none asked); CodeownersKept tells that it was there already.
	Codeowners     string `json:"codeowners,omitempty"`
	CodeownersKept bool   `json:"-"`
	// Existed reports whether the store was there before.
	Existed bool `json:"-"`
	// Warnings are what the user should know (an .mcp.json entry kept, a
	// merge driver git cannot find), one line each.
	Warnings []string `json:"-"`
	// Invalid are the bullets left out of the agent files' playbook block.
	Invalid []*mdstore.InvalidFile `json:"-"`
}

// Init creates the store and commits what it created, then writes the
// agent's files (not committed). The agent's files are worked out before
// anything is written, so a file curator cannot merge into stops the run
// with nothing changed. The report holds the warnings so far when it fails.
func Init(req Request) (*Report, error) {
	storeDir := filepath.Join(req.Dir, mdstore.DirName)
	if req.MergeDriverOnly {
		return mergeDriverOnly(req, storeDir)
	}
	rep := &Report{AgentFiles: []agentsetup.AgentFile{}, DryRun: req.DryRun, Created: []string{}}
	if req.Agent != "" {
		block, invalid, err := agentsetup.PlaybookBlock(storeDir)
		if err != nil {
			return rep, err
		}
		rep.Invalid = invalid
		if rep.AgentFiles, err = agentsetup.Plan(req.Dir, req.Agent, block, req.MCPServer); err != nil {
			return rep, err
		}
		for _, f := range rep.AgentFiles {
			if f.Action == agentsetup.ActionKeep && f.Path == agentsetup.MCPJSON {
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("warning: %s: %s", filepath.Join(req.Dir, agentsetup.MCPJSON), f.Note))
			}
		}
	}
	if fi, err := os.Stat(storeDir); err == nil && fi.IsDir() {
		rep.Existed = true
	}
	if req.DryRun {
		abs, err := filepath.Abs(storeDir)
		rep.Store = abs
		return rep, err
	}
	if err := os.MkdirAll(req.Dir, 0o755); err != nil {
		return rep, err
	}
	s, created, err := mdstore.Init(req.Dir)
	if err != nil {
		return rep, err
	}
	rep.Store = s.Dir
	if created != nil {
		rep.Created = created
	}
	if err := checkDriver(req, rep); err != nil {
		return rep, err
	}
	if err := commit(req, s, rep, "curator init"); err != nil {
		return rep, err
	}
	if err := agentsetup.Write(req.Dir, rep.AgentFiles); err != nil {
		return rep, err
	}
	if req.Codeowners != "" {
		changed := false
		if rep.Codeowners, changed, err = writeCodeowners(s.Dir, req.Codeowners); err != nil {
			return rep, err
		}
		rep.CodeownersKept = !changed
	}
	return rep, nil
}

// mergeDriverOnly registers the merge driver of the existing store in
// req.Dir, adding .curator/.gitattributes when the store lacks it.
func mergeDriverOnly(req Request, storeDir string) (*Report, error) {
	rep := &Report{AgentFiles: []agentsetup.AgentFile{}, Created: []string{}, Existed: true}
	if fi, err := os.Stat(filepath.Join(storeDir, "config.yaml")); err != nil || !fi.Mode().IsRegular() {
		return rep, fmt.Errorf("%s is not a curator store (no config.yaml); create one with `curator init`", storeDir)
	}
	s, created, err := mdstore.Init(req.Dir)
	if err != nil {
		return rep, err
	}
	rep.Store = s.Dir
	if created != nil {
		rep.Created = created
	}
	if err := checkDriver(req, rep); err != nil {
		return rep, err
	}
	return rep, commit(req, s, rep, "curator init --merge-driver")
}

// commit records the files init created as one run.
func commit(req Request, s *mdstore.Store, rep *Report, summary string) error {
	if len(rep.Created) == 0 || req.NoCommit {
		return nil
	}
	tx, err := s.Begin(req.Tx)
	if err != nil {
		return err
	}
	defer tx.Close()
	rep.Commit, err = tx.SaveStore(summary)
	return err
}
