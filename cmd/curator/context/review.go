package contextcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// ReviewOptions are what `context review` was asked to do.
type ReviewOptions struct {
	cmdutil.Env
	// List shows the review queue and decides nothing.
	List    bool
	Approve bool
	// All decides on every bullet of the review queue.
	All bool
	ID  string
}

const reviewUsage = "usage: curator context review [list] | approve|reject ID | approve|reject --all"

// NewCmdReview builds `curator context review`; runF replaces the run in tests.
func NewCmdReview(f *cmdutil.Factory, runF func(*ReviewOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "review",
		Usage:     "list the bullets that wait for a human, and approve or reject them (approve applies a pending merge proposal)",
		ArgsUsage: "[list] | approve|reject ID | approve|reject --all",
		Description: fmt.Sprintf(`Without arguments (or with list), the review queue: every active bullet marked validation:
required, of high priority (8–10) and never approved, of confidence under %g and never approved,
or sensitive (tagged sensitive, or matching context.sensitive_patterns) and never approved; highest
priority first, each with why it is listed. approve|reject ID decides on one bullet, --all on every
bullet of the queue, in one commit.`, playbook.LowConfidence),
		Flags: []cli.Flag{&cli.BoolFlag{Name: "all", Usage: "approve or reject every bullet of the review queue"}},
		Action: func(c *cli.Context) error {
			all := c.Bool("all")
			var args []string
			for _, a := range c.Args().Slice() {
				if a == "--all" {
					all = true
					continue
				}
				args = append(args, a)
			}
			opts := &ReviewOptions{Env: f.Env(c), All: all}
			verb := ""
			if len(args) > 0 {
				verb = args[0]
			}
			switch {
			case (verb == "" || verb == "list") && len(args) <= 1 && !all:
				opts.List = true
			case (verb == "approve" || verb == "reject") && all && len(args) == 1:
				opts.Approve = verb == "approve"
			case (verb == "approve" || verb == "reject") && !all && len(args) == 2:
				if err := cmdutil.CheckID("ID", args[1]); err != nil {
					return err
				}
				opts.Approve, opts.ID = verb == "approve", args[1]
			default:
				return cmdutil.Usagef(reviewUsage)
			}
			if runF != nil {
				return runF(opts)
			}
			return Review(opts)
		},
	}
}

// Review lists the review queue, or records the decision (one commit).
func Review(opts *ReviewOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	if opts.List {
		q, err := playbook.ListReviewQueue(context.Background(), s)
		if err != nil {
			return err
		}
		if opts.Globals.JSON {
			if err := opts.PrintJSON(q); err != nil {
				return err
			}
			return opts.FinishInvalid(q.Skipped)
		}
		if len(q.Bullets) == 0 {
			opts.Say("No bullet waits for review.\n")
			return opts.FinishInvalid(q.Skipped)
		}
		wait := "wait"
		if len(q.Bullets) == 1 {
			wait = "waits"
		}
		opts.Say("%s %s for review (highest priority first):\n", cmdutil.Plural(len(q.Bullets), "bullet", "bullets"), wait)
		for _, it := range q.Bullets {
			opts.Say("  %s (%s, p%d, confidence %.2f, validation %s): %s\n      %s\n", it.ID, it.Category, it.Priority, it.Confidence,
				it.Validation, strings.Join(it.Reasons, "; "), strings.Join(strings.Fields(it.Content), " "))
		}
		opts.Say("Approve or reject one with `curator context review approve|reject ID`, or all with --all.\n")
		return opts.FinishInvalid(q.Skipped)
	}
	rep, err := playbook.Review(context.Background(), s, playbook.ReviewRequest{ID: opts.ID, All: opts.All, Approve: opts.Approve, Saving: opts.Env.Saving()})
	if err != nil {
		return err
	}
	return printActions(opts.Env, *rep)
}
