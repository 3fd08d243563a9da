package contextcmd

import (
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// printActions reports what review did (the unreadable files it
// skipped are named in its JSON report only).
func printActions(env cmdutil.Env, rep playbook.ActionsReport) error {
	if env.Globals.JSON {
		return env.PrintJSON(rep)
	}
	for _, a := range rep.Actions {
		env.Say("%s %s: %s\n", a.Type, a.Subject(), a.Reasoning)
	}
	if rep.Commit != "" {
		env.Say("Committed %s\n", short(rep.Commit))
	} else if len(rep.Actions) == 0 {
		env.Say("Nothing to change.\n")
	}
	return nil
}
