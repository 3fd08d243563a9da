package initcmd

import (
	"strings"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// checkOwner refuses a --codeowners value that is not a code owner: a
// @user, an @org/team or an email address, one word.
func checkOwner(owner string) error {
	if owner == "" || strings.ContainsAny(owner, " \t\r\n#") || !strings.Contains(owner, "@") {
		return cmdutil.Usagef("--codeowners %q: want a code owner, @user, @org/team or an email address", owner)
	}
	return nil
}
