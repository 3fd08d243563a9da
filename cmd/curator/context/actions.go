package contextcmd

import (
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
)

// printActions reports what apply or review did.
func printActions(env cmdutil.Env, acts []playbook.Action, commit string, invalid []*mdstore.InvalidFile) error {
	if env.Globals.JSON {
		return env.PrintJSON(playbook.NewActionsReport(acts, commit, invalid))
	}
	for _, a := range acts {
		env.Say("%s %s: %s\n", a.Type, a.Subject(), a.Reasoning)
	}
	if commit != "" {
		env.Say("Committed %s\n", short(commit))
	} else if len(acts) == 0 {
		env.Say("Nothing to change.\n")
	}
	return nil
}
