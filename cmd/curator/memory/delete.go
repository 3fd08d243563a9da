package memorycmd

import (
	"errors"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/mdstore"
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
	err := move(opts.Env, opts.ID, func(m *mdstore.Memory, now time.Time) (*memory.Edit, error) {
		return memory.Delete(m, opts.Reason, now)
	})
	var bad *mdstore.InvalidFile
	if !errors.As(err, &bad) {
		return err
	}
	return removeUnreadable(opts.Env, opts.ID, bad)
}

// removeUnreadable removes the file of a memory that cannot be read.
func removeUnreadable(env cmdutil.Env, id string, why *mdstore.InvalidFile) error {
	tx, err := env.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	path, err := tx.Store.MemoryPath(id)
	if err != nil {
		return err
	}
	e := memory.RemoveUnreadable(id, path, why.Msg, tx.Store.Now())
	commit, err := env.Save(tx, e.Run)
	if err != nil {
		return err
	}
	if env.Globals.JSON {
		return env.PrintJSON(Moved{Commit: commit, ID: e.ID, Path: ""})
	}
	inRepo := path
	if _, prefix, err := tx.Store.RepoPlace(); err == nil {
		inRepo = prefix + path
	}
	env.Warn("curator memory delete: %s cannot be read (%s): its file was removed as it was; git history keeps it (`git show %s^:%s`)\n",
		path, why.Msg, shortCommit(commit), inRepo)
	env.Say("%s: %s → removed\n", id, path)
	return nil
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

// move runs a one-memory move under the lock, commits it and prints
// where the memory went. A memory whose state does not allow the move is
// a usage error; a file in the way blocks it.
func move(env cmdutil.Env, id string, edit func(*mdstore.Memory, time.Time) (*memory.Edit, error)) error {
	tx, err := env.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	s := tx.Store
	m, err := s.FindMemory(id)
	if err != nil {
		return err
	}
	e, err := edit(m, s.Now())
	switch {
	case errors.Is(err, memory.ErrInTrash), errors.Is(err, memory.ErrNotInTrash):
		return cmdutil.Usage(err)
	case err != nil:
		return err
	}
	if err := e.Occupied(s.Exists); err != nil {
		return cmdutil.Blocked(err)
	}
	commit, err := env.Save(tx, e.Run)
	if err != nil {
		return err
	}
	if env.Globals.JSON {
		return env.PrintJSON(Moved{Commit: commit, ID: e.ID, Path: e.To})
	}
	env.Say("%s: %s → %s\n", e.ID, e.From, e.To)
	return nil
}
