package main

import (
	"fmt"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/mdstore"
)

func memoryShowCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print one memory",
		ArgsUsage: "ID",
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			s, m, err := oneMemory(c, g)
			if err != nil {
				return err
			}
			_ = s
			if g.JSON {
				return g.printJSON(memoryJSON(m))
			}
			fmt.Fprintf(g.stdout, "# %s (%s)\n", m.Path, m.Status)
			_, err = g.stdout.Write(m.Doc.Bytes())
			return err
		},
	}
}

// oneMemory opens the store and reads the memory named by the one argument.
func oneMemory(c *cli.Context, g globals) (*mdstore.Store, *mdstore.Memory, error) {
	if c.NArg() != 1 {
		return nil, nil, cmdutil.Usagef("%s needs exactly one memory ID", c.Command.Name)
	}
	s, err := g.openStore()
	if err != nil {
		return nil, nil, err
	}
	m, err := s.FindMemory(c.Args().First())
	if err != nil {
		return nil, nil, err
	}
	return s, m, nil
}

func memoryUpdateCommand() *cli.Command {
	return &cli.Command{
		Name:      "update",
		Usage:     "change keys of a memory (maturity=confirmed on an inbox entry promotes it)",
		ArgsUsage: "ID --set key=value [--set key=value …]",
		Description: "Values are YAML: --set tags='[go, build]', --set content_confidence=4,\n" +
			"--set importance_factors.proximity=0.8 (a dotted key changes one entry of a map).\n" +
			"Only the changed keys' lines change in the file.",
		Flags: []cli.Flag{&cli.StringSliceFlag{Name: "set", Required: true, Usage: "key=value (repeatable)"}},
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			s, err := g.openStore()
			if err != nil {
				return err
			}
			if c.NArg() != 1 {
				return cmdutil.Usagef("update needs exactly one memory ID")
			}
			l, err := g.lock(s)
			if err != nil {
				return err
			}
			defer l.Unlock()
			m, err := s.FindMemory(c.Args().First())
			if err != nil {
				return err
			}
			var changed []string
			for _, kv := range c.StringSlice("set") {
				key, val, ok := strings.Cut(kv, "=")
				if !ok || key == "" {
					return cmdutil.Usagef("--set %q: want key=value", kv)
				}
				if key == "id" || key == "status" {
					return cmdutil.Usagef("--set %s: %s follows the file; use delete/restore or maturity=confirmed", key, key)
				}
				if err := setPath(m, key, val); err != nil {
					return err
				}
				changed = append(changed, key)
			}
			// Re-read the edited record with every check a file gets.
			checked, err := mdstore.ParseMemory(m.Path, m.Doc.Bytes())
			if err != nil {
				return cmdutil.Blocked(fmt.Errorf("the update would make an invalid memory: %w", err))
			}
			if err := cmdutil.RefuseSecret("memory update "+m.ID, s.Secrets().Check(checked.TextFields()...)); err != nil {
				return err
			}
			now := s.Now()
			cs := &mdstore.Changeset{}
			dst := m.Path
			switch {
			case checked.Status == "inbox" && checked.Maturity == "confirmed":
				if err := memory.Promote(checked, now, cs); err != nil {
					return err
				}
				dst = mdstore.MemoryPath("confirmed", checked.Type, checked.ID)
			case checked.Status == "confirmed" && checked.Type != m.Type:
				// confirmed/<type>/ follows the type
				dst = mdstore.MemoryPath("confirmed", checked.Type, checked.ID)
				cs.Move(m.Path, dst, checked.Doc.Bytes())
			default:
				cs.Write(m.Path, checked.Doc.Bytes())
			}
			if dst != m.Path && s.Exists(dst) {
				return cmdutil.Blocked(fmt.Errorf("cannot move %s to %s: a file is already there", m.Path, dst))
			}
			commit, err := g.save(s, cs, mdstore.CommitInfo{Summary: "memory update " + m.ID, Decisions: []string{"update " + m.ID + ": " + strings.Join(changed, ", ")}, RunID: newRunID(now), At: now})
			if err != nil {
				return err
			}
			if g.JSON {
				return g.printJSON(map[string]any{"id": m.ID, "path": dst, "changed": changed, "commit": commit})
			}
			g.say("updated %s (%s)\n", m.ID, dst)
			return nil
		},
	}
}

// setPath sets key (or key.sub for one entry of a map) to a YAML value.
func setPath(m *mdstore.Memory, key, raw string) error {
	var v any
	if err := yaml.Unmarshal([]byte(raw), &v); err != nil {
		return cmdutil.Usagef("--set %s: %v", key, err)
	}
	top, sub, nested := strings.Cut(key, ".")
	if !nested {
		return m.Doc.Set(key, v)
	}
	var all map[string]any
	if err := m.Doc.Decode(&all); err != nil {
		return err
	}
	inner, _ := all[top].(map[string]any)
	if inner == nil {
		inner = map[string]any{}
	}
	inner[sub] = v
	return m.Doc.Set(top, inner)
}

func memoryDeleteCommand() *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "move a memory to the trash (restorable)",
		ArgsUsage: "ID",
		Action: func(c *cli.Context) error {
			return memoryMove(c, func(m *mdstore.Memory, now time.Time, run string, cs *mdstore.Changeset) (string, error) {
				if m.Status == "trash" {
					return "", cmdutil.Usagef("memory %s is already in the trash", m.ID)
				}
				err := memory.Trash(m, memory.Trashed{Reason: "deleted", Run: run}, now, cs)
				return mdstore.MemoryPath("trash", m.Type, m.ID), err
			})
		},
	}
}

func memoryRestoreCommand() *cli.Command {
	return &cli.Command{
		Name:      "restore",
		Usage:     "move a memory from the trash back to where it was",
		ArgsUsage: "ID",
		Action: func(c *cli.Context) error {
			return memoryMove(c, func(m *mdstore.Memory, _ time.Time, _ string, cs *mdstore.Changeset) (string, error) {
				dst, err := memory.Restore(m, cs)
				if err != nil {
					return "", cmdutil.Usage(err)
				}
				return dst, nil
			})
		},
	}
}

// memoryMove runs a one-memory change under the lock and commits it.
func memoryMove(c *cli.Context, move func(*mdstore.Memory, time.Time, string, *mdstore.Changeset) (string, error)) error {
	g := globalsOf(c)
	if c.NArg() != 1 {
		return cmdutil.Usagef("%s needs exactly one memory ID", c.Command.Name)
	}
	s, unlock, err := g.openLocked()
	if err != nil {
		return err
	}
	defer unlock()
	m, err := s.FindMemory(c.Args().First())
	if err != nil {
		return err
	}
	now := s.Now()
	run := newRunID(now)
	cs := &mdstore.Changeset{}
	dst, err := move(m, now, run, cs)
	if err != nil {
		return err
	}
	if dst != m.Path && s.Exists(dst) {
		return cmdutil.Blocked(fmt.Errorf("cannot move %s to %s: a file is already there", m.Path, dst))
	}
	commit, err := g.save(s, cs, mdstore.CommitInfo{Summary: "memory " + c.Command.Name + " " + m.ID, Decisions: []string{c.Command.Name + " " + m.ID + ": " + m.Path + " → " + dst}, RunID: run, At: now})
	if err != nil {
		return err
	}
	if g.JSON {
		return g.printJSON(map[string]any{"id": m.ID, "path": dst, "commit": commit})
	}
	g.say("%s: %s → %s\n", m.ID, m.Path, dst)
	return nil
}
