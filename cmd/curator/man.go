package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// manCmd prints curator's manual page (roff), generated from the same
// commands and flags as --help.
func manCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:        "man",
		Usage:       "print the manual page (install: curator man > /usr/local/share/man/man1/curator.1)",
		Description: "Read it with: curator man | man -l -",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cmdutil.Usagef("man takes no arguments")
			}
			page, err := c.App.ToManWithSection(1)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(f.IO.Out, page)
			return err
		},
	}
}
