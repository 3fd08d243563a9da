package main

import (
	"github.com/urfave/cli/v2"
)

func memoryCommand() *cli.Command {
	return &cli.Command{
		Name:  "memory",
		Usage: "facts, concepts and lessons: inbox → confirmed → trash",
		Description: "Agents drop memories into memory/inbox/. `curator memory curate` dedups them, scores\n" +
			"them (0.4·proximity + 0.3·surprisal + 0.2·entity_priority + 0.1·unambiguity) and promotes\n" +
			"the strong ones to memory/confirmed/<type>/ or moves noise to memory/trash/.",
		Subcommands: []*cli.Command{
			memoryAddCommand(), memoryListCommand(), memoryShowCommand(), memoryUpdateCommand(),
			memoryDeleteCommand(), memoryRestoreCommand(), memoryCurateCommand(), memoryPromoteRuleCommand(),
			memoryTrashCommand(),
		},
	}
}
