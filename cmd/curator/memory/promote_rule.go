package memorycmd

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
)

// PromoteRuleOptions are what `memory promote-rule` was asked to do.
type PromoteRuleOptions struct {
	cmdutil.Env
	Scenario string
	Author   string
}

// PromoteRuleReport is the --json output of `memory promote-rule`.
type PromoteRuleReport struct {
	Commit      string                 `json:"commit"`
	ID          string                 `json:"id"`
	Invalid     []*mdstore.InvalidFile `json:"invalid"`
	Scenario    string                 `json:"scenario"`
	SourceCases []string               `json:"source_cases"`
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
	s := tx.Store
	if err := cmdutil.RefuseSecret("promote-rule", s.Secrets().Check(secrets.Field{Name: "--scenario", Text: opts.Scenario}, secrets.Field{Name: "--author", Text: opts.Author})); err != nil {
		return err
	}
	list, err := s.ListMemories(mdstore.MemoryQuery{Status: "inbox", Type: "lesson", Secrets: s.Secrets()})
	if err != nil {
		return err
	}
	// a rule file that cannot be read is drawn again
	existing, _ := s.FindMemory(memory.RuleID(opts.Scenario))
	d, err := memory.PromoteRule(opts.Scenario, memory.RuleCases(list.Memories, opts.Scenario, s.Config.Memory.DedupPrefix), opts.Author, existing, s.Now())
	if err != nil {
		return cmdutil.Blocked(err)
	}
	commit, err := opts.Save(tx, d.Run)
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		rep := PromoteRuleReport{Commit: commit, ID: d.ID, Invalid: cmdutil.InvalidList(list.Invalid), Scenario: opts.Scenario, SourceCases: d.Cases}
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		opts.Say("rule %s drawn from %s: %s\n", d.ID, cmdutil.Plural(len(d.Cases), "case", "cases"), strings.Join(d.Cases, ", "))
	}
	return opts.FinishInvalid(list.Invalid)
}
