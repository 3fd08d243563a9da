package contextcmd

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
)

// InjectOptions are what `context inject` was asked to do.
type InjectOptions struct {
	cmdutil.Env
	// Category limits the bullets ("" all).
	Category string
	Top      int
	File     string
}

// NewCmdInject builds `curator context inject`; runF replaces the run in tests.
func NewCmdInject(f *cmdutil.Factory, runF func(*InjectOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "inject",
		Usage: "write the top bullets into a file between <!-- curator:begin --> and <!-- curator:end -->",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "category", Usage: "only bullets of this category"},
			&cli.IntFlag{Name: "top", Value: 20, Usage: "how many bullets"},
			&cli.StringFlag{Name: "file", Value: "CLAUDE.md", Usage: "the file to write into"},
		},
		Description: "Only the block between the markers is curator's; the rest of the file is kept byte for byte.\n" +
			"Running it again with the same playbook changes nothing. The file is written, not committed.",
		Action: func(c *cli.Context) error {
			if c.Int("top") < 1 {
				return cmdutil.Usagef("--top must be at least 1")
			}
			opts := &InjectOptions{Env: f.Env(c), Top: c.Int("top"), File: c.String("file")}
			if c.IsSet("category") {
				opts.Category = playbook.NormCategory(c.String("category"))
			}
			if runF != nil {
				return runF(opts)
			}
			return Inject(opts)
		},
	}
}

// Inject rewrites the file's curator block with the top bullets.
func Inject(opts *InjectOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	pb, _, invalid, err := playbook.Read(s, false, s.Now())
	if err != nil {
		return err
	}
	defer s.WriteCaches()
	top := pb.Top(opts.Category, opts.Top) // read with their content
	waiting := pb.AwaitingReview(opts.Category)
	if err := pb.Err(); err != nil {
		return err
	}
	old, err := os.ReadFile(opts.File)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	out, err := playbook.Inject(old, playbook.InjectBlock(top, opts.Category))
	if err != nil {
		return cmdutil.Blocked(fmt.Errorf("%s: %w", opts.File, err))
	}
	changed := string(out) != string(old)
	if changed {
		if err := mdstore.WriteFileAtomic(opts.File, out, 0o644); err != nil {
			return err
		}
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(playbook.InjectReport{AwaitingReview: cmdutil.NonNil(waiting), Bullets: len(top), Changed: changed, File: opts.File}); err != nil {
			return err
		}
		return opts.FinishInvalid(invalid)
	}
	if changed {
		opts.Say("Injected %s into %s\n", cmdutil.Plural(len(top), "bullet", "bullets"), opts.File)
	} else {
		opts.Say("%s is up to date (%s)\n", opts.File, cmdutil.Plural(len(top), "bullet", "bullets"))
	}
	if len(waiting) > 0 {
		opts.Say("%s: %s (approve one with `curator context review approve ID`, or reject it)\n",
			awaitText(len(waiting)), firstIDs(waiting, maxNamed))
	}
	return opts.FinishInvalid(invalid)
}

// maxNamed is how many ids a line names before it says how many more.
const maxNamed = 5

// awaitText says how many bullets wait for review and are left out.
func awaitText(n int) string {
	if n == 1 {
		return "1 bullet awaits review and is left out"
	}
	return fmt.Sprintf("%d bullets await review and are left out", n)
}

// firstIDs is the first n ids, then how many more there are.
func firstIDs(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:n], ", "), len(ids)-n)
}
