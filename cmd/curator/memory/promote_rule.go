package memorycmd

import (
	"context"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
)

// PromoteRuleOptions are what `memory promote-rule` was asked to do.
type PromoteRuleOptions struct {
	cmdutil.Env
	Scenario string
	Author   string
}

// NewCmdPromoteRule builds `curator memory promote-rule`; runF replaces the run in tests.
func NewCmdPromoteRule(f *cmdutil.Factory, runF func(*PromoteRuleOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "promote-rule",
		Usage: "draw a rule from ≥ 3 distinct lesson cases of one scenario into confirmed/lesson/",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scenario", Required: true, Usage: "the scenario whose lessons make the rule"},
			&cli.StringFlag{Name: "author", Value: "curator", Usage: "author of the rule"},
		},
		Action: func(c *cli.Context) error {
			opts := &PromoteRuleOptions{Env: f.Env(c), Scenario: strings.TrimSpace(c.String("scenario")), Author: c.String("author")}
			if opts.Scenario == "" {
				return cmdutil.Usagef("--scenario must not be empty")
			}
			if runF != nil {
				return runF(opts)
			}
			return PromoteRule(opts)
		},
	}
}

// PromoteRule draws the scenario's rule from its inbox lesson cases and
// commits it.
func PromoteRule(opts *PromoteRuleOptions) error {
	tx, err := opts.OpenTx()
	if err != nil {
		return err
	}
	defer tx.Close()
	rep, err := memory.PromoteRule(context.Background(), tx, memory.PromoteRuleRequest{Scenario: opts.Scenario, Author: opts.Author, Save: opts.SaveOptions()})
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		opts.Say("rule %s drawn from %s: %s\n", rep.ID, cmdutil.Plural(len(rep.SourceCases), "case", "cases"), strings.Join(rep.SourceCases, ", "))
	}
	return opts.FinishInvalid(rep.Invalid)
}
