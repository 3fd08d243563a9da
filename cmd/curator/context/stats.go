package contextcmd

import (
	"context"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// StatsOptions are what `context stats` was asked to do.
type StatsOptions struct {
	cmdutil.Env
}

// NewCmdStats builds `curator context stats`; runF replaces the run in tests.
func NewCmdStats(f *cmdutil.Factory, runF func(*StatsOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "stats",
		Usage: "playbook statistics: bullets by category, counters, pending reflections",
		Action: func(c *cli.Context) error {
			opts := &StatsOptions{Env: f.Env(c)}
			if runF != nil {
				return runF(opts)
			}
			return Stats(opts)
		},
	}
}

// Stats prints the playbook's statistics.
func Stats(opts *StatsOptions) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	rep, err := playbook.Statistics(context.Background(), s, playbook.StatsRequest{})
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		if err := opts.PrintJSON(rep); err != nil {
			return err
		}
		return opts.FinishInvalid(rep.Invalid)
	}
	st := rep.Stats
	opts.Say("Active bullets:       %d\n", st.Active)
	opts.Say("Archived bullets:     %d\n", st.Archived)
	cats := make([]string, 0, len(st.ByCategory))
	for cat := range st.ByCategory {
		cats = append(cats, cat)
	}
	sort.Strings(cats)
	for _, cat := range cats {
		opts.Say("  %-18s  %d\n", cat, st.ByCategory[cat])
	}
	opts.Say("Average confidence:   %.3f\n", st.AvgConfidence)
	opts.Say("Helpful / harmful:    %d / %d\n", st.Helpful, st.Harmful)
	opts.Say("Awaiting review:      %d\n", st.ValidationRequired)
	opts.Say("Estimated tokens:     %d\n", st.Tokens)
	opts.Say("Pending reflections:  %d\n", rep.PendingReflections)
	return opts.FinishInvalid(rep.Invalid)
}
