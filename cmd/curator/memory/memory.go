package memorycmd

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
)

// NewCmd builds the `curator memory` group.
func NewCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "memory",
		Usage: "facts, concepts and lessons: inbox → confirmed → trash",
		Description: "Agents drop memories into memory/inbox/. `curator memory curate` dedups them, scores\n" +
			"them (0.4·proximity + 0.3·surprisal + 0.2·entity_priority + 0.1·unambiguity) and promotes\n" +
			"the strong ones to memory/confirmed/<type>/ or moves noise to memory/trash/.",
		Subcommands: []*cli.Command{
			NewCmdAdd(f, nil), NewCmdList(f, nil), NewCmdShow(f, nil), NewCmdUpdate(f, nil),
			NewCmdDelete(f, nil), NewCmdRestore(f, nil), NewCmdCurate(f, nil), NewCmdPromoteRule(f, nil),
			NewCmdTrash(f), NewCmdSearch(f, nil), NewCmdObserve(f, nil),
		},
	}
}

// oneID is the one memory ID a command takes.
func oneID(c *cli.Context) (string, error) {
	if c.NArg() != 1 {
		return "", cmdutil.Usagef("%s needs exactly one memory ID", c.Command.Name)
	}
	return c.Args().First(), nil
}

// windowFlags reads --from/--to; either may be empty.
func windowFlags(c *cli.Context) (from, to time.Time, err error) {
	if from, err = memory.ParseOptionalTime("--from", c.String("from")); err != nil {
		return from, to, err
	}
	to, err = memory.ParseOptionalTime("--to", c.String("to"))
	return from, to, err
}
