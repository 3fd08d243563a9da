package memorycmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
)

// RestoreOptions are what `memory restore` was asked to do.
type RestoreOptions struct {
	cmdutil.Env
	ID string
}

// NewCmdRestore builds `curator memory restore`; runF replaces the run in tests.
func NewCmdRestore(f *cmdutil.Factory, runF func(*RestoreOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "restore",
		Usage:     "move a memory from the trash back to where it was",
		ArgsUsage: "ID",
		Action: func(c *cli.Context) error {
			id, err := oneID(c)
			if err != nil {
				return err
			}
			opts := &RestoreOptions{Env: f.Env(c), ID: id}
			if runF != nil {
				return runF(opts)
			}
			return Restore(opts)
		},
	}
}

// Restore moves the memory from the trash back to the folder it was
// trashed from and commits it.
func Restore(opts *RestoreOptions) error {
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	rep, err := memory.Restore(context.Background(), tx, memory.RestoreRequest{ID: opts.ID, Save: opts.SaveOptions()})
	if err != nil {
		return err
	}
	return printMoved(opts.Env, rep)
}
