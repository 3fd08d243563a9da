package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/mdstore"
)

// run is main without os.Exit, so tests can call it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runWith(args, cmdutil.Streams(stdin, stdout, stderr), nil, nil)
}

// runWith runs the command line args with the given streams; every save
// of the run gets saveOpts (step hooks of crash tests and timing). tune
// sets the collector for the command's workload before it runs (nil:
// left as it is).
func runWith(args []string, ios *cmdutil.IOStreams, saveOpts []mdstore.SaveOption, tune func(workload)) int {
	f := &cmdutil.Factory{IO: ios, CommandLine: commandLine(args), SaveOptions: saveOpts}
	app := newApp(f)
	tuneCommands(app.Commands, "", tune)
	err := app.Run(interspersed(app, args))
	code := cmdutil.ExitCode(err)
	if err != nil {
		var inv cmdutil.InvalidInputs
		if !errors.As(err, &inv) || jsonWanted(args) {
			reportError(ios, err, code, jsonWanted(args))
		}
		if code == cmdutil.ExitUsage && !jsonWanted(args) && !errors.Is(err, config.ErrInvalid) {
			fmt.Fprintln(ios.ErrOut, "Run 'curator --help' (or 'curator COMMAND --help') for usage.")
		}
	}
	return code
}

func jsonWanted(args []string) bool {
	for _, a := range args[1:] {
		if a == "--json" || a == "-json" || a == "--json=true" {
			return true
		}
		if a == "--" {
			break
		}
	}
	return false
}

// errorReport is the JSON form of a failed command, on stderr.
type errorReport struct {
	Error    string `json:"error"`
	ExitCode int    `json:"exit_code"`
	// Invalid lists the skipped inputs of a run that exits 5.
	Invalid []*mdstore.InvalidFile `json:"invalid,omitempty"`
}

// reportError prints the error of a run on stderr: as JSON with --json,
// else one line, red on a terminal.
func reportError(ios *cmdutil.IOStreams, err error, code int, asJSON bool) {
	if asJSON {
		rep := errorReport{Error: err.Error(), ExitCode: code}
		var inv cmdutil.InvalidInputs
		if errors.As(err, &inv) {
			rep.Invalid = inv.Files
		}
		json.NewEncoder(ios.ErrOut).Encode(rep)
		return
	}
	fmt.Fprintln(ios.ErrOut, ios.ErrStyle().Error("curator: "+err.Error()))
}

func newApp(f *cmdutil.Factory) *cli.App {
	app := &cli.App{
		Name:      "curator",
		Usage:     "curate what coding agents learn, as reviewable files in git",
		UsageText: "curator [global flags] <group> <command> [flags]",
		Description: "Exit status: 0 done; 1 failed; 2 usage error; 3 validation blocked the operation;\n" +
			"4 another curator run holds the store's lock; 5 done, but some inputs were invalid and skipped;\n" +
			"6 the agent's access level (config.yaml access) is below what the command needs.",
		Reader:    f.IO.In,
		Writer:    f.IO.Out,
		ErrWriter: f.IO.ErrOut,
		// The help command replaces urfave/cli's, which then leaves out
		// the --help flag: it is added here.
		Flags:           append(cmdutil.GlobalFlags(), cli.HelpFlag),
		Commands:        commands(f),
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		// --set tags=[a, b] is one value, not two.
		DisableSliceFlagSeparator: true,
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usageError("curator", c.App.Flags, err)
		},
		Version:              version().String(),
		EnableBashCompletion: true,
	}
	app.Commands = append(app.Commands, helpCmd(), versionCmd(f), completionCmd(f), manCmd(f))
	for _, c := range app.Commands {
		cmdutil.AddGlobalFlags(c)
	}
	conventions(app)
	return app
}

// commandLine is the command as the user typed it, for the commit trailer.
func commandLine(args []string) string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if i == 0 {
			a = "curator"
		}
		if strings.ContainsAny(a, " \t\"'") {
			a = fmt.Sprintf("%q", a)
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}
