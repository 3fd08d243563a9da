package main

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// TestFlagHelp checks every flag of every command as --help shows it: it
// has a description and names at most one default.
func TestFlagHelp(t *testing.T) {
	ios, _, _ := cmdutil.Test("")
	app := newApp(&cmdutil.Factory{IO: ios})
	var walk func(path string, flags []cli.Flag, cmds []*cli.Command)
	walk = func(path string, flags []cli.Flag, cmds []*cli.Command) {
		for _, f := range flags {
			line := f.String()
			if d, ok := f.(cli.DocGenerationFlag); ok && strings.TrimSpace(d.GetUsage()) == "" {
				t.Errorf("%s: flag %s has no description", path, f.Names()[0])
			}
			if n := strings.Count(strings.ToLower(line), "default"); n > 1 {
				t.Errorf("%s: flag help names %d defaults: %s", path, n, line)
			}
		}
		for _, c := range cmds {
			walk(path+" "+c.Name, c.Flags, c.Subcommands)
		}
	}
	walk("curator", app.Flags, app.Commands)
}
