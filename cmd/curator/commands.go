package main

import (
	"github.com/urfave/cli/v2"

	auditcmd "github.com/curator-dev/curator/cmd/curator/audit"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	contextcmd "github.com/curator-dev/curator/cmd/curator/context"
	dashboardcmd "github.com/curator-dev/curator/cmd/curator/dashboard"
	diffcmd "github.com/curator-dev/curator/cmd/curator/diff"
	initcmd "github.com/curator-dev/curator/cmd/curator/init"
	logcmd "github.com/curator-dev/curator/cmd/curator/log"
	mcpcmd "github.com/curator-dev/curator/cmd/curator/mcp"
	memorycmd "github.com/curator-dev/curator/cmd/curator/memory"
	mergedrivercmd "github.com/curator-dev/curator/cmd/curator/mergedriver"
	pipelinecmd "github.com/curator-dev/curator/cmd/curator/pipeline"
	similaritycmd "github.com/curator-dev/curator/cmd/curator/similarity"
	synccmd "github.com/curator-dev/curator/cmd/curator/sync"
	watchcmd "github.com/curator-dev/curator/cmd/curator/watch"
)

// commands lists the command groups; each group lives in a folder of its
// own, one file per command.
func commands(f *cmdutil.Factory) []*cli.Command {
	return []*cli.Command{
		initcmd.NewCmd(f, nil),
		memorycmd.NewCmd(f),
		contextcmd.NewCmd(f),
		pipelinecmd.NewCmd(f),
		similaritycmd.NewCmd(f),
		watchcmd.NewCmd(f, nil),
		mcpcmd.NewCmd(f),
		logcmd.NewCmd(f, nil),
		mergedrivercmd.NewCmd(f),
		synccmd.NewCmd(f, nil),
		synccmd.NewResolveCmd(f, nil),
		diffcmd.NewCmd(f, nil),
		diffcmd.NewCmdShow(f, nil),
		auditcmd.NewCmd(f, nil),
		dashboardcmd.NewCmd(f, nil),
	}
}
