package cmdutil

import (
	"github.com/urfave/cli/v2"
)

// ParseOnly runs cmd's flag parsing on args (the words after the command's
// name) inside an app with the global flags: the command is built with a
// run function that records its options instead of running (watch's
// --curate-flags, and tests).
func ParseOnly(cmd *cli.Command, args ...string) error {
	AddGlobalFlags(cmd)
	// The command-line conventions the program gives every command: flag
	// errors and missing required flags are usage errors.
	if cmd.OnUsageError == nil {
		cmd.OnUsageError = func(c *cli.Context, err error, _ bool) error { return UsageError{err} }
	}
	RequireFlags(cmd)
	app := &cli.App{
		Name:                      "curator",
		Flags:                     GlobalFlags(),
		Commands:                  []*cli.Command{cmd},
		Writer:                    discard{},
		ErrWriter:                 discard{},
		ExitErrHandler:            func(*cli.Context, error) {},
		DisableSliceFlagSeparator: true,
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return UsageError{err}
		},
	}
	return app.Run(append([]string{"curator", cmd.Name}, args...))
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
