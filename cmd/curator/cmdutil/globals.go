package cmdutil

import (
	"os"
	"time"

	"github.com/urfave/cli/v2"
)

// Globals are the global flags, accepted before the group and after any
// command (`curator --json memory list` and `curator memory list --json`).
type Globals struct {
	Store    string
	JSON     bool
	Quiet    bool
	NoCommit bool
	// LockTimeout is --lock-timeout; nil when the flag was not given (the
	// store's configured lock_timeout applies), so 0s means "do not wait".
	LockTimeout *time.Duration
	// Agent is the agent curator runs for (--agent, else CURATOR_AGENT;
	// "" unnamed): config.yaml's access section gives it its level.
	Agent string
}

// GlobalFlags are the flags every command accepts.
func GlobalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "store", Usage: "the .curator folder, or the folder holding it", DefaultText: "found by walking up from the working directory", EnvVars: []string{"CURATOR_STORE"}},
		&cli.BoolFlag{Name: "json", Usage: "machine output on stdout as one JSON document; errors as JSON on stderr"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only errors"},
		&cli.BoolFlag{Name: "no-commit", Usage: "change the files but make no git commit"},
		lockTimeoutFlag(),
		&cli.StringFlag{Name: "agent", Usage: "the agent curator runs for, whose level config.yaml's access section gives", DefaultText: "CURATOR_AGENT, else unnamed (in curator mcp: the MCP client's name)"},
	}
}

// AddGlobalFlags gives c and its subcommands the global flags they lack.
func AddGlobalFlags(c *cli.Command) {
	have := map[string]bool{}
	for _, f := range c.Flags {
		for _, n := range f.Names() {
			have[n] = true
		}
	}
	for _, f := range GlobalFlags() {
		if !have[f.Names()[0]] {
			c.Flags = append(c.Flags, f)
		}
	}
	for _, sub := range c.Subcommands {
		AddGlobalFlags(sub)
	}
}

// GlobalsOf reads the global flags from a command's context and its parents.
func GlobalsOf(c *cli.Context) Globals {
	var g Globals
	for _, l := range c.Lineage() {
		if l.IsSet("store") {
			g.Store = l.String("store")
		}
		if l.Bool("json") {
			g.JSON = true
		}
		if l.Bool("quiet") {
			g.Quiet = true
		}
		if l.Bool("no-commit") {
			g.NoCommit = true
		}
		if l.IsSet("lock-timeout") {
			d := Duration(l, "lock-timeout")
			g.LockTimeout = &d
		}
	}
	if g.Store == "" {
		g.Store = os.Getenv("CURATOR_STORE")
	}
	g.Agent = agentOf(c)
	return g
}

// agentOf is --agent given anywhere on the command line but to `init`,
// whose own --agent names the coding agent to set up; else CURATOR_AGENT.
func agentOf(c *cli.Context) string {
	for _, l := range c.Lineage() {
		if l.Command != nil && l.Command.Name == "init" {
			continue
		}
		if l.IsSet("agent") {
			return l.String("agent")
		}
	}
	return os.Getenv("CURATOR_AGENT")
}

func lockTimeoutFlag() cli.Flag {
	f := DurationFlag("lock-timeout", 0, "how long to wait for another run's lock")
	f.DefaultText = "config.yaml lock_timeout, 10s"
	return f
}
