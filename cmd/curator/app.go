package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/mdstore"
)

// Exit statuses (SPEC §3), for scripts:
//
//	0 done
//	1 failed
//	2 usage error
//	3 validation blocked the operation
//	4 another curator run holds the store's lock
//	5 done, but some inputs were invalid and were skipped (reported)
const (
	exitOK      = 0
	exitFailed  = 1
	exitUsage   = 2
	exitBlocked = 3
	exitLocked  = 4
	exitInvalid = 5
)

// usageError marks an error in how the command was called.
type usageError struct{ error }

// blockedError marks an operation refused by validation.
type blockedError struct{ error }

// invalidInputs is returned when a run finished but skipped invalid inputs.
type invalidInputs struct{ n int }

func (e invalidInputs) Error() string {
	return fmt.Sprintf("%d invalid input(s) were skipped and left untouched", e.n)
}

func usagef(format string, a ...any) error {
	return usageError{fmt.Errorf(format, a...)}
}

func blocked(err error) error { return blockedError{err} }

// exitCode is the one table from errors to exit statuses.
func exitCode(err error) int {
	var u usageError
	var b blockedError
	var inv invalidInputs
	var ce cli.ExitCoder
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &inv):
		return exitInvalid
	case errors.As(err, &u):
		return exitUsage
	case errors.As(err, &b):
		return exitBlocked
	case errors.Is(err, mdstore.ErrSecret):
		return exitBlocked
	case errors.Is(err, mdstore.ErrLocked), errors.Is(err, mdstore.ErrGitLocked):
		return exitLocked
	case errors.As(err, &ce):
		return ce.ExitCode()
	case isFlagError(err):
		return exitUsage
	}
	return exitFailed
}

func isFlagError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"flag provided but not defined", "Required flag", "invalid value", "flag needs an argument", "No help topic"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// run is main without os.Exit, so tests can call it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	err := app.Run(interspersed(app, args))
	code := exitCode(err)
	if err != nil {
		var inv invalidInputs
		if !errors.As(err, &inv) || jsonWanted(args) {
			reportError(stderr, err, code, jsonWanted(args))
		}
		if code == exitUsage && !jsonWanted(args) {
			fmt.Fprintln(stderr, "Run 'curator --help' (or 'curator COMMAND --help') for usage.")
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

func reportError(w io.Writer, err error, code int, asJSON bool) {
	if asJSON {
		json.NewEncoder(w).Encode(map[string]any{"error": err.Error(), "exit_code": code})
		return
	}
	fmt.Fprintln(w, "curator: "+err.Error())
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "curator",
		Usage:     "curate what coding agents learn, as reviewable files in git",
		UsageText: "curator [global flags] <group> <command> [flags]",
		Description: "Exit status: 0 done; 1 failed; 2 usage error; 3 validation blocked the operation;\n" +
			"4 another curator run holds the store's lock; 5 done, but some inputs were invalid and skipped.",
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		Flags:           globalFlags(),
		Commands:        commands(),
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		// --set tags=[a, b] is one value, not two.
		DisableSliceFlagSeparator: true,
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usageError{err}
		},
	}
	for _, c := range app.Commands {
		addGlobalFlags(c)
	}
	return app
}

// globalFlags are accepted before the group and after any command
// (`curator --json memory list` and `curator memory list --json`).
func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "store", Usage: "the .curator folder (default: found by walking up from the working directory)", EnvVars: []string{"CURATOR_STORE"}},
		&cli.BoolFlag{Name: "json", Usage: "machine output on stdout as one JSON document; errors as JSON on stderr"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only errors"},
		&cli.BoolFlag{Name: "no-commit", Usage: "change the files but make no git commit"},
		&cli.DurationFlag{Name: "lock-timeout", Usage: "how long to wait for another run's lock (default: config lock_timeout, 10s)"},
	}
}

func addGlobalFlags(c *cli.Command) {
	have := map[string]bool{}
	for _, f := range c.Flags {
		for _, n := range f.Names() {
			have[n] = true
		}
	}
	for _, f := range globalFlags() {
		if !have[f.Names()[0]] {
			c.Flags = append(c.Flags, f)
		}
	}
	for _, sub := range c.Subcommands {
		addGlobalFlags(sub)
	}
}

// globals are the global flags, read from any command's context.
type globals struct {
	Store       string
	JSON        bool
	Quiet       bool
	NoCommit    bool
	LockTimeout time.Duration
	// LockTimeoutSet tells --lock-timeout 0s (do not wait) from no flag.
	LockTimeoutSet bool
	stdout         io.Writer
	stderr         io.Writer
	stdin          io.Reader
	args           []string
}

func globalsOf(c *cli.Context) globals {
	g := globals{stdout: c.App.Writer, stderr: c.App.ErrWriter, stdin: c.App.Reader}
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
			g.LockTimeout, g.LockTimeoutSet = l.Duration("lock-timeout"), true
		}
	}
	if g.Store == "" {
		g.Store = os.Getenv("CURATOR_STORE")
	}
	g.args = os.Args
	return g
}

// openStore opens the store named by --store or found from the working directory.
func (g globals) openStore() (*mdstore.Store, error) {
	dir := g.Store
	if dir == "" {
		found, err := mdstore.Find(".")
		if err != nil {
			return nil, err
		}
		dir = found
	}
	return mdstore.Open(dir)
}

// printJSON writes v as the command's one JSON document.
func (g globals) printJSON(v any) error {
	enc := json.NewEncoder(g.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// say prints a human message unless --quiet or --json.
func (g globals) say(format string, a ...any) {
	if g.Quiet || g.JSON {
		return
	}
	fmt.Fprintf(g.stdout, format, a...)
}
