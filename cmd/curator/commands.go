package main

import "github.com/urfave/cli/v2"

// commands lists the command groups; each group lives in its own file.
func commands() []*cli.Command {
	return []*cli.Command{
		initCommand(),
		memoryCommand(),
		contextCommand(),
		pipelineCommand(),
		similarityCommand(),
	}
}
