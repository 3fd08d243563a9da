package agentsetup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/templates"
)

// The coding agents that `init --agent` sets up.
const (
	// AgentClaude is Claude Code: .mcp.json, .claude/commands/, CLAUDE.md.
	AgentClaude = "claude"
	// AgentsMD is the AGENTS.md convention of other agents.
	AgentsMD = "agents-md"
)

// DefaultMCPServer is the name curator's MCP server is registered under in
// .mcp.json unless --mcp-server names another.
const DefaultMCPServer = "curator"

// mcpServerName is what a server name may hold: Claude Code names the
// server's tools mcp__<server>__<tool>.
var mcpServerName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// CheckMCPServer refuses a server name that cannot be part of a tool name
// (a request error).
func CheckMCPServer(name string) error {
	if !mcpServerName.MatchString(name) || strings.Contains(name, "__") {
		return refuse.Requestf("%q: a server name is letters, digits, - and _ (no __), starting with a letter or digit", name)
	}
	return nil
}

// CheckAgent refuses an agent that is not one of KnownAgents (a request
// error).
func CheckAgent(agent string) error {
	if !slices.Contains(KnownAgents, agent) {
		return refuse.Requestf("%q: want one of %s", agent, strings.Join(KnownAgents, ", "))
	}
	return nil
}

// claudeCommand is the slash command name of templates.ClaudeCommands,
// for the MCP server registered as server.
func claudeCommand(name, server string) ([]byte, error) {
	text, err := fs.ReadFile(templates.Agents, path.Join(templates.ClaudeCommands, name))
	if err != nil {
		return nil, err
	}
	t, err := template.New(name).Option("missingkey=error").Parse(string(text))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, struct{ Server string }{server}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// KnownAgents are the values --agent accepts.
var KnownAgents = []string{AgentClaude, AgentsMD}

// What happens to an agent file.
const (
	// ActionCreate: the file is new.
	ActionCreate = "create"
	// ActionMerge: curator's part is added to, or updated in, the file;
	// the rest of it is kept.
	ActionMerge = "merge"
	// ActionKeep: the file holds its own version of curator's part; the
	// user's version wins and the file is left as it is.
	ActionKeep = "keep"
	// ActionUnchanged: the file already holds what curator would write.
	ActionUnchanged = "unchanged"
)

// injectTop is how many playbook bullets the block holds, as `context
// inject` writes by default.
const injectTop = 20

// AgentFile is one file of an agent's setup and what happens to it.
type AgentFile struct {
	// Path is relative to init's folder, with forward slashes.
	Path   string `json:"path"`
	Action string `json:"action"`
	// Note says why a file is kept.
	Note string `json:"note,omitempty"`
	// data is the new content (create and merge only).
	data []byte
}

// Writes reports whether Write writes the file (it is created or merged).
func (f AgentFile) Writes() bool { return f.data != nil }

// Plan works out the files of agent in dir and what would happen to
// each; block is the playbook block (playbook.InjectBlock), server the name
// Claude Code knows curator's MCP server by (DefaultMCPServer when ""). Nothing is
// written. A file curator cannot merge into (.mcp.json that is not JSON, a
// block with one marker) is an error naming it.
func Plan(dir, agent, block, server string) ([]AgentFile, error) {
	if server == "" {
		server = DefaultMCPServer
	}
	switch agent {
	case AgentClaude:
		var files []AgentFile
		f, err := planMCPJSON(dir, server)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		cmds, err := planClaudeCommands(dir, server)
		if err != nil {
			return nil, err
		}
		files = append(files, cmds...)
		f, err = planBlock(dir, "CLAUDE.md", "", block)
		if err != nil {
			return nil, err
		}
		return append(files, f), nil
	case AgentsMD:
		guide, err := fs.ReadFile(templates.Agents, templates.AgentsMDGuide)
		if err != nil {
			return nil, err
		}
		f, err := planBlock(dir, "AGENTS.md", string(guide), block)
		if err != nil {
			return nil, err
		}
		return []AgentFile{f}, nil
	}
	return nil, CheckAgent(agent)
}

// planMCPJSON merges curator's server, named server, into .mcp.json.
func planMCPJSON(dir, server string) (AgentFile, error) {
	f := AgentFile{Path: MCPJSON}
	old, exists, err := readAgentFile(dir, f.Path)
	if err != nil {
		return f, err
	}
	out, res, err := mergeServer(old, server, curatorServer)
	var je *jsonError
	if errors.As(err, &je) {
		return f, fmt.Errorf("%s:%d: %s; nothing was written", agentPath(dir, f.Path), je.Line, je.Msg)
	}
	if err != nil {
		return f, fmt.Errorf("%s: %w", agentPath(dir, f.Path), err)
	}
	switch {
	case res == serverOther:
		f.Action = ActionKeep
		f.Note = "mcpServers." + server + " is not " + curatorServerJSON() + "; the file's entry is kept"
	case res == serverSame:
		f.Action = ActionUnchanged
	case exists:
		f.Action, f.data = ActionMerge, out
	default:
		f.Action, f.data = ActionCreate, out
	}
	return f, nil
}

// curatorServerJSON is curator's .mcp.json entry on one line.
func curatorServerJSON() string {
	return jsonStyle{colon: ": "}.compact(curatorServer)
}

// planClaudeCommands writes the slash commands to .claude/commands/, with
// the MCP server's name filled in; a file that is there with other content
// is the user's and is kept.
func planClaudeCommands(dir, server string) ([]AgentFile, error) {
	entries, err := fs.ReadDir(templates.Agents, templates.ClaudeCommands)
	if err != nil {
		return nil, err
	}
	var files []AgentFile
	for _, e := range entries {
		want, err := claudeCommand(e.Name(), server)
		if err != nil {
			return nil, err
		}
		f := AgentFile{Path: ".claude/commands/" + e.Name()}
		old, exists, err := readAgentFile(dir, f.Path)
		switch {
		case err != nil:
			return nil, err
		case !exists:
			f.Action, f.data = ActionCreate, want
		case bytes.Equal(old, want):
			f.Action = ActionUnchanged
		default:
			f.Action, f.Note = ActionKeep, "edited; the file's version is kept"
		}
		files = append(files, f)
	}
	return files, nil
}

// planBlock puts the playbook block, and the guide section when guide is
// not empty, into a markdown file, as `context inject` does.
func planBlock(dir, name, guide, block string) (AgentFile, error) {
	f := AgentFile{Path: name}
	old, exists, err := readAgentFile(dir, name)
	if err != nil {
		return f, err
	}
	out := old
	if guide != "" {
		if out, err = injectGuide(out, guide); err != nil {
			return f, refuse.Blocked(fmt.Errorf("%s: %w", agentPath(dir, name), err))
		}
	}
	if out, err = playbook.Inject(out, block); err != nil {
		return f, refuse.Blocked(fmt.Errorf("%s: %w", agentPath(dir, name), err))
	}
	switch {
	case !exists:
		f.Action, f.data = ActionCreate, out
	case bytes.Equal(out, old):
		f.Action = ActionUnchanged
	default:
		f.Action, f.data = ActionMerge, out
	}
	return f, nil
}

// PlaybookBlock is the block `context inject` writes for the store in
// storeDir (no bullets when there is no store yet), and the bullet files
// that could not be read.
func PlaybookBlock(storeDir string) (string, []*mdstore.InvalidFile, error) {
	if _, err := os.Stat(storeDir); errors.Is(err, fs.ErrNotExist) {
		return playbook.InjectBlockSelected(nil, "", playbook.TopSelection(injectTop)), nil, nil
	}
	s, err := mdstore.Open(storeDir)
	if err != nil {
		return "", nil, err
	}
	list, err := s.ListBullets(true) // the archive too: an id it shares with an active bullet is named
	if err != nil {
		return "", nil, err
	}
	return playbook.InjectBlockSelected(playbook.TopBullets(list.Active, "", injectTop), "", playbook.TopSelection(injectTop)), list.Invalid, nil
}

// Write writes the files that are created or merged.
func Write(dir string, files []AgentFile) error {
	for _, f := range files {
		if f.data == nil {
			continue
		}
		p := agentPath(dir, f.Path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := mdstore.WriteFileAtomic(p, f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readAgentFile reads an agent file; a missing one is empty and !exists.
func readAgentFile(dir, rel string) ([]byte, bool, error) {
	b, err := os.ReadFile(agentPath(dir, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}

func agentPath(dir, rel string) string {
	return filepath.Join(dir, filepath.FromSlash(rel))
}
