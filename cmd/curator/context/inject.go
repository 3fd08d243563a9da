package contextcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// InjectOptions are what `context inject` was asked to do.
type InjectOptions struct {
	cmdutil.Env
	playbook.InjectRequest
}

// NewCmdInject builds `curator context inject`; runF replaces the run in tests.
func NewCmdInject(f *cmdutil.Factory, runF func(*InjectOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "inject",
		Usage: "write the top bullets, or those relevant to a task, into a file between <!-- curator:begin --> and <!-- curator:end -->",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "category", Usage: "only bullets of this category"},
			&cli.StringFlag{Name: "for", Aliases: []string{"task"}, Usage: "the task: write the bullets most relevant to it (by similarity, as pipeline briefs choose them)", DefaultText: "the top bullets by rank"},
			&cli.IntFlag{Name: "top", Value: playbook.DefaultInjectTop, Usage: "how many bullets"},
			&cli.StringFlag{Name: "file", Value: playbook.DefaultInjectFile, Usage: "the file to write into"},
		},
		Description: "Only the block between the markers is curator's; the rest of the file is kept byte for byte.\n" +
			"Running it again with the same playbook changes nothing. The file is written, not committed.\n" +
			fmt.Sprintf("With --for TEXT the block holds the bullets most relevant to the task (a similarity of at least %g\n", playbook.RelevantFloor) +
			fmt.Sprintf("with two words in common, or %g alone; harmful no more often than helpful) and says\n", playbook.RelevantWithoutWords) +
			"\"Selected for: TEXT\"; else the top bullets by rank.",
		Action: func(c *cli.Context) error {
			opts := &InjectOptions{Env: f.Env(c), InjectRequest: playbook.InjectRequest{Top: c.Int("top"), File: c.String("file"), For: c.String("for"),
				ForSet: c.IsSet("for"), Category: c.String("category")}}
			if err := opts.Check(); err != nil {
				return cmdutil.FlagError(err)
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
	rep, err := playbook.InjectFile(context.Background(), s, opts.InjectRequest)
	if err != nil {
		return cmdutil.FlagError(err)
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
		return opts.FinishInvalid(rep.Skipped)
	}
	if rep.Changed {
		opts.Say("Injected %s into %s (%s)\n", cmdutil.Plural(rep.Bullets, "bullet", "bullets"), rep.File, rep.Selection)
	} else {
		opts.Say("%s is up to date (%s)\n", rep.File, cmdutil.Plural(rep.Bullets, "bullet", "bullets"))
	}
	if waiting := rep.AwaitingReview; len(waiting) > 0 {
		opts.Say("%s: %s (approve one with `curator context review approve ID`, or reject it)\n",
			awaitText(len(waiting)), firstIDs(waiting, maxNamed))
	}
	return opts.FinishInvalid(rep.Skipped)
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
