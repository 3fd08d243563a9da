package pipelinecmd

import (
	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// NewCmd builds the `curator pipeline` group.
func NewCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "pipeline",
		Usage: "multi-agent pipeline handoffs: validated artifacts, context briefs, state and dashboard",
		Description: "Files live in the store's pipelines/ folder (or --home DIR): pipeline-state-<project>.json,\n" +
			"context-briefs/<project>/<n>-<phase>[-step-<k>].md, dashboard-<project>.html, pipeline-config.json.",
		Subcommands: []*cli.Command{
			NewCmdTransition(f, nil),
			NewCmdResume(f, nil),
			NewCmdRefresh(f, nil),
			NewCmdRestart(f, nil),
			NewCmdHold(f, nil),
			NewCmdContinue(f, nil),
			NewCmdSkip(f, nil),
			NewCmdStatus(f, nil),
			NewCmdValidate(f, nil),
			NewCmdReconstruct(f, nil),
			NewCmdDashboard(f, nil),
		},
	}
}
