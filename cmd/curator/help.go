package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// helpCmd is `curator help [COMMAND...]`: the help of the program or of
// the command named, on stdout, exactly as `curator [COMMAND...] --help`
// prints it.
func helpCmd() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show the help of curator or of a command (curator help memory add)",
		ArgsUsage: "[COMMAND...]",
		Action: func(c *cli.Context) error {
			cmds := c.App.Commands
			var path []string
			for _, name := range c.Args().Slice() {
				next := findCommand(cmds, name)
				if next == nil {
					where := strings.Join(append([]string{"curator"}, path...), " ")
					msg := fmt.Sprintf("unknown command %q for %q", name, where)
					if s := nearestCommand(cmds, name); s != "" {
						msg += fmt.Sprintf("; did you mean %q?", s)
					}
					return cmdutil.Usagef("%s", msg)
				}
				cmds, path = next.Subcommands, append(path, next.Name)
			}
			// The help is the one `curator COMMAND… --help` prints (a
			// group's list of commands, every flag): the same command line
			// is run with --help.
			return c.App.RunContext(c.Context, append(append([]string{"curator"}, path...), "--help"))
		},
	}
}
