package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/mdstore"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "create a .curator store (config.yaml, folders, a git repository if there is none)",
		ArgsUsage: "[DIR]",
		Description: "Creates DIR/.curator (DIR defaults to the working directory) with config.yaml and the\n" +
			"folders of the store layout, and a git repository in DIR when DIR is not inside one.\n" +
			"Existing files are kept. The new store is committed as the first curator run.",
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			dir := c.Args().First()
			if dir == "" {
				dir = "."
			}
			if c.NArg() > 1 {
				return usagef("init takes at most one folder")
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			s, created, err := mdstore.Init(dir)
			if err != nil {
				return err
			}
			commit := ""
			if len(created) > 0 && !g.NoCommit {
				l, err := g.lock(s)
				if err != nil {
					return err
				}
				defer l.Unlock()
				if commit, err = s.CommitStore(mdstore.CommitInfo{
					Summary: "curator init", RunID: newRunID(s.Now()), Command: commandLine(),
				}); err != nil {
					return err
				}
			}
			if g.JSON {
				return g.printJSON(map[string]any{"store": s.Dir, "created": created, "commit": commit})
			}
			if len(created) == 0 {
				g.say("Store %s already exists; nothing changed.\n", s.Dir)
				return nil
			}
			g.say("Initialised curator store in %s\n", s.Dir)
			return nil
		},
	}
}
