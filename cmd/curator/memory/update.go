package memorycmd

import (
	"errors"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/secrets"
)

// UpdateOptions are what `memory update` was asked to do.
type UpdateOptions struct {
	cmdutil.Env
	ID   string
	Sets []memory.Set
}

// UpdateReport is the --json output of `memory update`.
type UpdateReport struct {
	Changed []string `json:"changed"`
	Commit  string   `json:"commit"`
	ID      string   `json:"id"`
	Path    string   `json:"path"`
}

// NewCmdUpdate builds `curator memory update`; runF replaces the run in tests.
func NewCmdUpdate(f *cmdutil.Factory, runF func(*UpdateOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "update",
		Usage:     "change keys of a memory (maturity=confirmed on an inbox entry promotes it)",
		ArgsUsage: "ID --set key=value [--set key=value …]",
		Description: "Values are YAML: --set tags='[go, build]', --set content_confidence=4,\n" +
			"--set importance_factors.proximity=0.8 (a dotted key changes one entry of a map).\n" +
			"Only the changed keys' lines change in the file.",
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
	v, err := frontmatter.ParseValue(raw)
	if err != nil {
		return memory.Set{}, cmdutil.Usagef("--set %s: %v", key, err)
	}
	return memory.Set{Key: key, Value: v}, nil
}

// refuseSecretKeys refuses an update whose key names hold a secret (they are
// written into the file and the commit message as much as the values). It
// runs before anything else reads the keys, so no message repeats one; the
// key is named with its secret redacted.
func refuseSecretKeys(p *secrets.Policy, where string, sets []memory.Set) error {
	for _, set := range sets {
		if red, fs := p.Redact(set.Key); len(fs) > 0 {
			return cmdutil.RefuseSecret(where, &secrets.Error{Field: "the key " + strconv.Quote(red), Finding: fs[0]})
		}
	}
	return nil
}

// Update changes the memory's keys, moves its file where the change says
// and commits it.
func Update(opts *UpdateOptions) error {
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	s := tx.Store
	if err := refuseSecretKeys(s.Secrets(), "memory update "+opts.ID, opts.Sets); err != nil {
		return err
	}
	m, err := s.FindMemory(opts.ID)
	if err != nil {
		return err
	}
	now := s.Now()
	e, err := memory.Update(m, opts.Sets, now, s.Config.Memory.ObservationDays)
	var fixed *memory.FixedKeyError
	switch {
	case errors.As(err, &fixed):
		return cmdutil.Usagef("--set %s: %v", fixed.Key, err)
	case errors.Is(err, memory.ErrInvalidEdit):
		return cmdutil.Blocked(err)
	case err != nil:
		return err
	}
	if err := cmdutil.RefuseSecret("memory update "+m.ID, s.Secrets().Check(e.Memory.TextFields()...)); err != nil {
		return err
	}
	if err := e.Occupied(s.Exists); err != nil {
		return cmdutil.Blocked(err)
	}
	commit, err := opts.Save(tx, e.Run)
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(UpdateReport{Changed: e.Changed, Commit: commit, ID: e.ID, Path: e.To})
	}
	opts.Say("updated %s (%s)\n", e.ID, e.To)
	return nil
}
