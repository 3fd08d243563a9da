package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// conventions gives every command the command-line conventions users
// expect: a mistyped command or flag is a usage error (exit 2) with a
// suggestion, usage printed because of a mistake goes to stderr, and a
// group names its commands as `<command>`.
func conventions(app *cli.App) {
	app.Action = missingCommand
	for _, c := range app.Commands {
		commandConventions(c, "curator "+c.Name)
	}
}

func commandConventions(c *cli.Command, path string) {
	if c.OnUsageError == nil {
		c.OnUsageError = flagError(c)
	}
	cmdutil.RequireFlags(c)
	if len(c.Subcommands) == 0 {
		return
	}
	if c.UsageText == "" {
		c.UsageText = path + " <command> [flags]"
	}
	if c.Action == nil {
		c.Action = missingCommand
	}
	for _, sub := range c.Subcommands {
		commandConventions(sub, path+" "+sub.Name)
	}
}

// flagError is a command's usage error.
func flagError(c *cli.Command) cli.OnUsageErrorFunc {
	return func(_ *cli.Context, err error, _ bool) error {
		path := c.HelpName
		if path == "" {
			path = "curator " + c.Name
		}
		return usageError(path, c.Flags, err)
	}
}

// usageError is err of the command at path as a usage error (exit 2): for
// an unknown flag, it names the nearest flag the command has.
func usageError(path string, flags []cli.Flag, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		msg = fmt.Sprintf("unknown flag --%s for %q", name, path)
		if s := nearestFlag(flags, name); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", s)
		}
		return cmdutil.Usagef("%s", msg)
	}
	return cmdutil.Usage(fmt.Errorf("%s: %s", path, msg))
}

// missingCommand is the action of the program and of each group: with no
// argument it prints the usage on stderr (not with --json, whose stderr is
// the JSON error alone); with one, that argument is a command it does not
// know. Both are usage errors.
func missingCommand(c *cli.Context) error {
	cmds, path := c.App.Commands, "curator"
	if c.Command != nil && c.Command.Name != "" {
		cmds, path = c.Command.Subcommands, c.Command.HelpName
	}
	if c.NArg() == 0 {
		if !cmdutil.GlobalsOf(c).JSON {
			printUsage(c, c.App.ErrWriter)
		}
		return cmdutil.Usagef("missing command for %q", path)
	}
	name := c.Args().First()
	msg := fmt.Sprintf("unknown command %q for %q", name, path)
	if s := nearestCommand(cmds, name); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return cmdutil.Usagef("%s", msg)
}

// printUsage writes the help of the context's command (or of the program).
func printUsage(c *cli.Context, w interface{ Write([]byte) (int, error) }) {
	if c.Command == nil || c.Command.Name == "" {
		cli.HelpPrinter(w, cli.AppHelpTemplate, c.App)
		return
	}
	tmpl := cli.CommandHelpTemplate
	if len(c.Command.Subcommands) > 0 {
		tmpl = cli.SubcommandHelpTemplate
	}
	cli.HelpPrinter(w, tmpl, c.Command)
}

// nearest is the candidate closest to typed, or "" when none is close.
func nearest(typed string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := editDistance(typed, c)
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	// Close enough: a few edits, or typed is a prefix of the name.
	limit := max(2, len([]rune(typed))/3)
	if bestD >= 0 && bestD <= limit {
		return best
	}
	for _, c := range candidates {
		if len(typed) >= 2 && strings.HasPrefix(c, typed) {
			return c
		}
	}
	return ""
}

func nearestCommand(cmds []*cli.Command, typed string) string {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	return nearest(typed, names)
}

func nearestFlag(flags []cli.Flag, typed string) string {
	var names []string
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) > 1 {
				names = append(names, n)
			}
		}
	}
	if s := nearest(typed, names); s != "" {
		return "--" + s
	}
	return ""
}

// editDistance is the Levenshtein distance of a and b, by runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
