package memorycmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
)

// DeleteOptions are what `memory delete` was asked to do.
type DeleteOptions struct {
	cmdutil.Env
	ID string
	// Reason is recorded as trashed.reason ("" is "deleted").
	Reason string
}

// NewCmdDelete builds `curator memory delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "move a memory to the trash (restorable)",
		ArgsUsage: "ID",
		Flags:     []cli.Flag{&cli.StringFlag{Name: "reason", Usage: "why, recorded as trashed.reason (default: deleted)"}},
		Action: func(c *cli.Context) error {
			id, err := oneID(c)
			if err != nil {
				return err
			}
			opts := &DeleteOptions{Env: f.Env(c), ID: id, Reason: c.String("reason")}
			if runF != nil {
				return runF(opts)
			}
			return Delete(opts)
		},
	}
}

// Delete moves the memory to the trash and commits it. A memory whose file
// cannot be read is removed as it is (git history keeps it).
func Delete(opts *DeleteOptions) error {
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	rep, err := memory.Delete(context.Background(), tx, memory.DeleteRequest{ID: opts.ID, Reason: opts.Reason, Save: opts.SaveOptions()})
	if err != nil {
		return err
	}
	if rep.Unreadable != "" && !opts.Globals.JSON {
		inRepo := rep.From
		if _, prefix, err := tx.Store.RepoPlace(); err == nil {
			inRepo = prefix + rep.From
		}
		opts.Warn("curator memory delete: %s cannot be read (%s): its file was removed as it was; git history keeps it (`git show %s^:%s`)\n",
			rep.From, rep.Unreadable, shortCommit(rep.Commit), inRepo)
		opts.Say("%s: %s → removed\n", rep.ID, rep.From)
		return nil
	}
	return printMoved(opts.Env, rep)
}

func shortCommit(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "HEAD"
	}
	return h
}

// printMoved prints where a memory went.
func printMoved(env cmdutil.Env, rep *memory.Moved) error {
	if env.Globals.JSON {
		return env.PrintJSON(rep)
	}
	env.Say("%s: %s → %s\n", rep.ID, rep.From, rep.Path)
	return nil
}
