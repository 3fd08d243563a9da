package pipelinecmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// open opens the home of the command's pipeline files; write begins the
// store's transaction when the home is in the store.
func (o *HomeOptions) open(write bool) (*pipelinehome.Home, error) {
	return pipelinehome.Open(o.homeOptions(write))
}

// homeOptions say which home the command opens, and how it saves there.
func (o *HomeOptions) homeOptions(write bool) pipelinehome.Options {
	return pipelinehome.Options{Store: o.OpenStore, Home: o.Home, UserHome: cmdutil.UserHome(),
		Write: write, Tx: o.TxOptions(), Save: o.SaveOptions()}
}

// run runs one use-case in the opened home and prints its report. The
// report of a blocked handoff (its blocked state recorded) is printed
// before the error.
func (o *HomeOptions) run(write bool, use func(*pipelinehome.Home) (*pipeline.ModeReport, error)) error {
	h, err := o.open(write)
	if err != nil {
		return err
	}
	defer h.Close()
	r, runErr := use(h)
	if r == nil {
		return runErr
	}
	if err := printReport(o.Env, r); err != nil {
		return err
	}
	return o.finish(runErr)
}

// finish is the command's error once its report is printed: a blocked
// handoff or failed validation said once, with whether it was recorded.
func (o *HomeOptions) finish(runErr error) error {
	if !o.Globals.JSON && !o.Globals.Quiet {
		// the report above named every blocker: say it once, and
		// whether it was recorded
		first, _, _ := strings.Cut(fmt.Sprint(runErr), "\n")
		first = strings.TrimSuffix(first, ":")
		switch {
		case errors.Is(runErr, pipeline.ErrBlocked):
			return cmdutil.Blocked(fmt.Errorf("%s; the blockers are listed above and recorded in the state", first))
		case errors.Is(runErr, pipeline.ErrNotValid):
			return cmdutil.Blocked(fmt.Errorf("%s; the problems are listed above; nothing was recorded (a transition records its blockers in the state)", first))
		}
	}
	return runErr
}
