package main

import (
	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	initcmd "github.com/curator-dev/curator/cmd/curator/init"
	memorycmd "github.com/curator-dev/curator/cmd/curator/memory"
	similaritycmd "github.com/curator-dev/curator/cmd/curator/similarity"
)

// commands lists the command groups; each group lives in a folder of its
// own, one file per command.
func commands(f *cmdutil.Factory) []*cli.Command {
	return []*cli.Command{
		initcmd.NewCmd(f, nil),
		memorycmd.NewCmd(f),
		contextCommand(),
		pipelineCommand(),
		similaritycmd.NewCmd(f),
	}
}
