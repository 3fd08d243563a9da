package initcmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/agentsetup"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/mdstore"
)

// Options are what `curator init` was asked to do.
type Options struct {
	cmdutil.Env
	// Dir is the folder that gets .curator (default: the working directory).
	Dir string
	// Agent is the coding agent to set up in Dir ("" none; agentsetup.KnownAgents).
	Agent string
	// MCPServer is the name curator's MCP server is registered under in
	// .mcp.json, and that the slash commands call it by (--mcp-server;
	// "" is agentsetup.DefaultMCPServer).
	MCPServer string
	// DryRun reports what would be created or changed and writes nothing.
	DryRun bool
	// MergeDriver only registers the merge driver of an existing store
	// (a fresh clone's repository config lacks it).
	MergeDriver bool
}

// Report is the --json output of init.
type Report struct {
	Store   string   `json:"store"`
	Created []string `json:"created"`
	Commit  string   `json:"commit"`
	// AgentFiles are the files of --agent, relative to DIR; they are
	// written, never committed.
	AgentFiles []agentsetup.AgentFile `json:"agent_files"`
	DryRun     bool                   `json:"dry_run,omitempty"`
}

// NewCmd builds `curator init`; runF replaces the run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "create a .curator store (config.yaml, folders, a git repository if there is none); --agent sets up a coding agent",
		ArgsUsage: "[DIR]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Usage: "also set up a coding agent in DIR: " + strings.Join(agentsetup.KnownAgents, " or ")},
			&cli.StringFlag{Name: "mcp-server", Value: agentsetup.DefaultMCPServer, Usage: "with --agent claude: the name curator's MCP server is registered under in .mcp.json (its tools are mcp__NAME__*)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be created or changed, and write nothing"},
			&cli.BoolFlag{Name: "merge-driver", Usage: "only register curator's git merge driver for an existing store (after git clone)"},
		},
		Description: "Creates DIR/.curator (DIR defaults to the working directory) with config.yaml and the\n" +
			"folders of the store layout, and a git repository in DIR when DIR is not inside one.\n" +
			"Existing files are kept. The new store is committed as the first curator run.\n\n" +
			"--agent claude writes, in DIR: .mcp.json with the curator MCP server (merged into an existing\n" +
			"file; an entry of that name of your own is kept) under the name --mcp-server gives (default\n" +
			"curator; its tools are mcp__NAME__*, the name the slash commands use), the slash commands /curate-memory, /curate-context\n" +
			"and /handoff in .claude/commands/ (a file you edited is kept), and the playbook block of\n" +
			"`context inject` in CLAUDE.md. --agent agents-md writes the playbook block and a curator section\n" +
			"into AGENTS.md. These files belong to your project: they are written, not committed.\n" +
			"Running it again with the same playbook changes nothing. --dry-run prints each file with\n" +
			"create, merge, keep or unchanged, and writes nothing.\n\n" +
			"init also registers curator's merge driver, so that git merge, pull and rebase merge the\n" +
			"store's records record by record: .curator/.gitattributes names it for *.md and *.json, and\n" +
			"merge.curator.driver in the repository's config runs `curator merge-driver` (the absolute path\n" +
			"of this curator when `curator` is not on PATH; a driver git cannot find is warned about). A git\n" +
			"clone does not copy repository config: run `curator init` (or `curator init --merge-driver`)\n" +
			"in each clone.",
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cmdutil.Usagef("init takes at most one folder")
			}
			opts := &Options{Env: f.Env(c), Dir: c.Args().First(), Agent: c.String("agent"), MCPServer: c.String("mcp-server"),
				DryRun: c.Bool("dry-run"), MergeDriver: c.Bool("merge-driver")}
			if opts.MergeDriver && (opts.DryRun || c.IsSet("agent")) {
				return cmdutil.Usagef("--merge-driver registers the merge driver only; it takes neither --agent nor --dry-run")
			}
			if opts.Dir == "" {
				opts.Dir = "."
			}
			if c.IsSet("agent") {
				if err := agentsetup.CheckAgent(opts.Agent); err != nil {
					return cmdutil.Usage(fmt.Errorf("--agent %w", err))
				}
			}
			if c.IsSet("mcp-server") && opts.Agent != agentsetup.AgentClaude {
				return cmdutil.Usagef("--mcp-server names the MCP server of --agent claude; it takes --agent claude")
			}
			if err := agentsetup.CheckMCPServer(opts.MCPServer); err != nil {
				return cmdutil.Usage(fmt.Errorf("--mcp-server %w", err))
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
}

// Run creates the store and commits what it created, then writes the
// agent's files (not committed). The agent's files are worked out before
// anything is written, so a file curator cannot merge into stops the run
// with nothing changed.
func Run(opts *Options) error {
	storeDir := filepath.Join(opts.Dir, mdstore.DirName)
	if opts.MergeDriver {
		return mergeDriver(opts, storeDir)
	}
	rep := Report{AgentFiles: []agentsetup.AgentFile{}, DryRun: opts.DryRun}
	// invalid are the bullets left out of the agent file's playbook block
	var invalid []*mdstore.InvalidFile
	if opts.Agent != "" {
		var block string
		var err error
		block, invalid, err = agentsetup.PlaybookBlock(storeDir)
		if err != nil {
			return err
		}
		if rep.AgentFiles, err = agentsetup.Plan(opts.Dir, opts.Agent, block, opts.MCPServer); err != nil {
			return err
		}
		for _, f := range rep.AgentFiles {
			if f.Action == agentsetup.ActionKeep && f.Path == agentsetup.MCPJSON {
				opts.Warn("curator: warning: %s: %s\n", filepath.Join(opts.Dir, agentsetup.MCPJSON), f.Note)
			}
		}
	}
	if opts.DryRun {
		if err := dryRun(opts, storeDir, rep); err != nil {
			return err
		}
		return opts.FinishInvalid(invalid)
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return err
	}
	s, created, err := mdstore.Init(opts.Dir)
	if err != nil {
		return err
	}
	rep.Store, rep.Created = s.Dir, cmdutil.NonNil(created)
	if err := checkDriver(opts, opts.Dir); err != nil {
		return err
	}
	if len(created) > 0 && !opts.Globals.NoCommit {
		tx, err := opts.Begin(s)
		if err != nil {
			return err
		}
		defer tx.Close()
		if rep.Commit, err = tx.SaveStore("curator init"); err != nil {
			return err
		}
	}
	if err := agentsetup.Write(opts.Dir, rep.AgentFiles); err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
		return opts.FinishInvalid(invalid)
	}
	switch {
	case len(created) > 0:
		opts.Say("Initialised curator store in %s\n", s.Dir)
	case opts.Agent == "":
		opts.Say("Store %s already exists; nothing changed.\n", s.Dir)
	default:
		opts.Say("Store %s already exists.\n", s.Dir)
	}
	sayAgentFiles(opts, rep.AgentFiles)
	return opts.FinishInvalid(invalid)
}

// dryRun reports what Run would do.
func dryRun(opts *Options, storeDir string, rep Report) error {
	abs, err := filepath.Abs(storeDir)
	if err != nil {
		return err
	}
	rep.Store, rep.Created = abs, []string{}
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	if fi, err := os.Stat(storeDir); err == nil && fi.IsDir() {
		opts.Say("Store %s already exists.\n", abs)
	} else {
		opts.Say("Would initialise a curator store in %s\n", abs)
	}
	sayAgentFiles(opts, rep.AgentFiles)
	opts.Say("Dry run: nothing was written.\n")
	return nil
}

// sayAgentFiles lists the agent files, one a line with its action.
func sayAgentFiles(opts *Options, files []agentsetup.AgentFile) {
	if len(files) == 0 {
		return
	}
	for _, f := range files {
		if f.Note != "" {
			opts.Say("  %-9s %s (%s)\n", f.Action, f.Path, f.Note)
		} else {
			opts.Say("  %-9s %s\n", f.Action, f.Path)
		}
	}
	for _, f := range files {
		if f.Writes() && !opts.DryRun {
			opts.Say("Agent files are written, not committed: they belong to your project.\n")
			return
		}
	}
}

// mergeDriver registers the merge driver of the existing store in
// opts.Dir, adding .curator/.gitattributes when the store lacks it.
func mergeDriver(opts *Options, storeDir string) error {
	if fi, err := os.Stat(filepath.Join(storeDir, "config.yaml")); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a curator store (no config.yaml); create one with `curator init`", storeDir)
	}
	opts.Globals.Quiet = opts.Globals.Quiet || opts.Globals.JSON
	s, created, err := mdstore.Init(opts.Dir)
	if err != nil {
		return err
	}
	rep := Report{Store: s.Dir, Created: cmdutil.NonNil(created), AgentFiles: []agentsetup.AgentFile{}}
	if err := checkDriver(opts, opts.Dir); err != nil {
		return err
	}
	if len(created) > 0 && !opts.Globals.NoCommit {
		tx, err := opts.Begin(s)
		if err != nil {
			return err
		}
		defer tx.Close()
		if rep.Commit, err = tx.SaveStore("curator init --merge-driver"); err != nil {
			return err
		}
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	opts.Say("Merge driver registered: %s names it, merge.curator.driver in the repository's config runs it.\n",
		filepath.Join(s.Dir, ".gitattributes"))
	return nil
}
