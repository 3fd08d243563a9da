package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// helpCmd is `curator help [COMMAND...]`: the help of the program or of
// the command named, on stdout.
func helpCmd() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show the help of curator or of a command (curator help memory add)",
		ArgsUsage: "[COMMAND...]",
		Action: func(c *cli.Context) error {
			cmds := c.App.Commands
			var found *cli.Command
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
				found, cmds, path = next, next.Subcommands, append(path, name)
			}
			if found == nil {
				cli.HelpPrinter(c.App.Writer, cli.AppHelpTemplate, c.App)
				return nil
			}
			if found.HelpName == "" {
				found.HelpName = strings.Join(append([]string{"curator"}, path...), " ")
			}
			tmpl := cli.CommandHelpTemplate
			if len(found.Subcommands) > 0 {
				tmpl = cli.SubcommandHelpTemplate
			}
			cli.HelpPrinter(c.App.Writer, tmpl, found)
			return nil
		},
	}
}
