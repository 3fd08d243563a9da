package initcmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/agentsetup"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/storeinit"
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
	// Codeowners is the code owner to give the merge log in the
	// repository's CODEOWNERS ("" none).
	Codeowners string
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
			&cli.StringFlag{Name: "codeowners", Usage: "give the merge log (context/log/) this code owner (@user, @org/team or an email) in the repository's CODEOWNERS"},
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
			"in each clone.\n\n" +
			"--codeowners OWNER adds `/<store>/context/log/ OWNER` to the repository's CODEOWNERS (the one\n" +
			"that exists, else .github/CODEOWNERS when there is a .github folder, else CODEOWNERS at the\n" +
			"root), so every change to the merge log waits for that owner's review; a line for that path\n" +
			"already there is kept. Like the agent files, it is written, not committed.",
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cmdutil.Usagef("init takes at most one folder")
			}
			opts := &Options{Env: f.Env(c), Dir: c.Args().First(), Agent: c.String("agent"), MCPServer: c.String("mcp-server"),
				DryRun: c.Bool("dry-run"), MergeDriver: c.Bool("merge-driver"), Codeowners: c.String("codeowners")}
			if c.IsSet("codeowners") {
				if err := storeinit.CheckOwner(opts.Codeowners); err != nil {
					return cmdutil.Usage(fmt.Errorf("--codeowners %w", err))
				}
			}
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

// Run runs init and prints what it did: the store, and what happens to
// each agent file.
func Run(opts *Options) error {
	if opts.MergeDriver {
		opts.Globals.Quiet = opts.Globals.Quiet || opts.Globals.JSON
	}
	rep, err := storeinit.Init(storeinit.Request{Dir: opts.Dir, Agent: opts.Agent, MCPServer: opts.MCPServer, DryRun: opts.DryRun,
		MergeDriverOnly: opts.MergeDriver, Codeowners: opts.Codeowners, Self: selfPath, Tx: opts.TxOptions(), NoCommit: opts.Globals.NoCommit})
	for _, w := range rep.Warnings {
		opts.Warn("curator: %s\n", w)
	}
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
		return opts.FinishInvalid(rep.Invalid)
	}
	switch {
	case opts.MergeDriver:
		opts.Say("Merge driver registered: %s names it, merge.curator.driver in the repository's config runs it.\n",
			filepath.Join(rep.Store, ".gitattributes"))
		return nil
	case opts.DryRun && rep.Existed:
		opts.Say("Store %s already exists.\n", rep.Store)
	case opts.DryRun:
		opts.Say("Would initialise a curator store in %s\n", rep.Store)
	case len(rep.Created) > 0:
		opts.Say("Initialised curator store in %s\n", rep.Store)
	case opts.Agent == "":
		opts.Say("Store %s already exists; nothing changed.\n", rep.Store)
	default:
		opts.Say("Store %s already exists.\n", rep.Store)
	}
	sayAgentFiles(opts, rep.AgentFiles)
	switch {
	case rep.Codeowners != "" && rep.CodeownersKept:
		opts.Say("CODEOWNERS: %s already names an owner of the merge log; kept\n", rep.Codeowners)
	case rep.Codeowners != "":
		opts.Say("CODEOWNERS: %s gives the merge log to %s\n", rep.Codeowners, opts.Codeowners)
	}
	if opts.DryRun {
		opts.Say("Dry run: nothing was written.\n")
	}
	return opts.FinishInvalid(rep.Invalid)
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

// selfPath is the absolute path of the running curator: the one it was
// started as (a symbolic link stays one, so that an upgrade in place
// keeps working), else the executable's.
func selfPath() (string, error) {
	if a := os.Args[0]; strings.ContainsRune(a, filepath.Separator) {
		return filepath.Abs(a)
	} else if p, err := exec.LookPath(a); err == nil {
		return filepath.Abs(p)
	}
	return os.Executable()
}
