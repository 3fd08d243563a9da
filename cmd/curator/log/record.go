package logcmd

import (
	"errors"
	"fmt"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/history"
)

// Record prints the life of the record opts.Query.Rev names, or, when no
// record has that id in the history, the runs from that revision.
func Record(opts *Options) error {
	s, err := opts.OpenStore()
	if err != nil {
		return err
	}
	id := opts.Query.Rev
	q := opts.Query
	q.Rev = ""
	events, err := history.RecordLog(s.Dir, id, q)
	if errors.Is(err, history.ErrNoRecord) {
		return Log(opts)
	}
	if err != nil {
		return err
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(cmdutil.NonNil(events))
	}
	for _, e := range events {
		run := e.RunID
		if e.ByHand {
			run = "(by hand)"
		}
		fmt.Fprintf(opts.IO.Out, "%s  %.10s  %-24s  %-14s  %s\n", e.Time.Local().Format("2006-01-02 15:04"), e.Commit, run, e.ID, e.Summary)
	}
	return nil
}
