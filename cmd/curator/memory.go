package main

import "github.com/urfave/cli/v2"

func memoryCommand() *cli.Command {
	return &cli.Command{Name: "memory", Usage: "facts, concepts and lessons: inbox → confirmed → trash"}
}
