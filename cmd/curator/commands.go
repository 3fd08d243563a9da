package main

import (
	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	contextcmd "github.com/curator-dev/curator/cmd/curator/context"
	initcmd "github.com/curator-dev/curator/cmd/curator/init"
	similaritycmd "github.com/curator-dev/curator/cmd/curator/similarity"
)

// commands lists the command groups; each group lives in a folder of its
// own, one file per command.
func commands(f *cmdutil.Factory) []*cli.Command {
	return []*cli.Command{
		initcmd.NewCmd(f, nil),
		memoryCommand(),
		contextcmd.NewCmd(f),
		pipelineCommand(),
		similaritycmd.NewCmd(f),
	}
}
