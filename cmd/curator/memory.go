package main

import (
	"fmt"
	"strings"

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

// splitList splits "a,b, c" into its non-empty parts.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func checkOneOf(flag, v string, set []string) error {
	for _, x := range set {
		if v == x {
			return nil
		}
	}
	return usagef("--%s %q: want one of %s", flag, v, strings.Join(set, ", "))
}

func checkUnit(flag string, v float64) error {
	if v < 0 || v > 1 {
		return usagef("--%s %v: want a number in [0,1]", flag, v)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
