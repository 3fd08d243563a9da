package memorycmd

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/frontmatter"
)

// UpdateOptions are what `memory update` was asked to do.
type UpdateOptions struct {
	cmdutil.Env
	ID   string
	Sets []memory.Set
}

// NewCmdUpdate builds `curator memory update`; runF replaces the run in tests.
func NewCmdUpdate(f *cmdutil.Factory, runF func(*UpdateOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "update",
		Usage:     "change keys of a memory (maturity=confirmed on an inbox entry promotes it)",
		ArgsUsage: "ID --set key=value [--set key=value …]",
		Description: "Values are YAML: --set tags='[go, build]', --set content_confidence=4,\n" +
			"--set importance_factors.proximity=0.8 (a dotted key changes one entry of a map).\n" +
			"Only the changed keys' lines change in the file. maturity=rule is refused: a rule is drawn\n" +
			"from at least 3 cases of a scenario by `curator memory promote-rule`.",
		Flags: []cli.Flag{&cli.StringSliceFlag{Name: "set", Required: true, Usage: "key=value (repeatable)"}},
		Action: func(c *cli.Context) error {
			id, err := oneID(c)
			if err != nil {
				return err
			}
			opts := &UpdateOptions{Env: f.Env(c), ID: id}
			for _, kv := range c.StringSlice("set") {
				s, err := parseSet(kv)
				if err != nil {
					return err
				}
				opts.Sets = append(opts.Sets, s)
			}
			if runF != nil {
				return runF(opts)
			}
			return Update(opts)
		},
	}
}

// parseSet reads one --set key=value; the value is YAML.
func parseSet(kv string) (memory.Set, error) {
	key, raw, ok := strings.Cut(kv, "=")
	if !ok || key == "" {
		return memory.Set{}, cmdutil.Usagef("--set %q: want key=value", kv)
	}
	if !utf8.ValidString(kv) {
		return memory.Set{}, cmdutil.Usagef("--set %q: not valid UTF-8", kv)
	}
	v, err := frontmatter.ParseValue(raw)
	if err != nil {
		return memory.Set{}, cmdutil.Usagef("--set %s: %v", key, err)
	}
	return memory.Set{Key: key, Value: v}, nil
}

// Update changes the memory's keys, moves its file where the change says
// and commits it.
func Update(opts *UpdateOptions) error {
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	rep, err := memory.Update(context.Background(), tx, memory.UpdateRequest{ID: opts.ID, Sets: opts.Sets, Save: opts.SaveOptions()})
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(rep)
	}
	opts.Say("updated %s (%s)\n", rep.ID, rep.Path)
	return nil
}
