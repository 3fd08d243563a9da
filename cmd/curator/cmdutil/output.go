package cmdutil

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/curator-dev/curator/mdstore"
)

// PrintJSON writes v as the command's one JSON document on stdout.
func (e Env) PrintJSON(v any) error {
	enc := json.NewEncoder(e.IO.Out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Say prints a human message on stdout unless --quiet or --json.
func (e Env) Say(format string, a ...any) {
	if e.Globals.Quiet || e.Globals.JSON {
		return
	}
	fmt.Fprintf(e.IO.Out, format, a...)
}

// Warn prints a warning on stderr unless --quiet (yellow on a terminal).
func (e Env) Warn(format string, a ...any) {
	if e.Globals.Quiet {
		return
	}
	fmt.Fprint(e.IO.ErrOut, e.IO.ErrStyle().Warning(fmt.Sprintf(format, a...)))
}

// NonNil is never nil, so JSON reports show [] rather than null.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// SplitList splits "a,b, c" into its non-empty parts.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// CheckOneOf is a usage error unless v is one of set.
func CheckOneOf(flag, v string, set []string) error {
	for _, x := range set {
		if v == x {
			return nil
		}
	}
	return Usagef("--%s %q: want one of %s", flag, v, strings.Join(set, ", "))
}

// Plural is "1 entry" or "3 entries".
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// FinishInvalid ends every command that skipped invalid inputs, in one
// shape: exit status 5; on stderr one line per input ("curator: skipped
// PATH:LINE: why (left untouched)"), or, with --json, nothing here and one
// JSON document from the caller of the command ({"error", "exit_code": 5,
// "invalid": [{"path", "line", "error"}]}).
func (e Env) FinishInvalid(inv []*mdstore.InvalidFile) error {
	if len(inv) == 0 {
		return nil
	}
	if !e.Globals.JSON {
		e.ReportInvalid(inv)
	}
	return InvalidInputs{Files: inv}
}

// ReportInvalid names every file that could not be read, on stderr.
func (e Env) ReportInvalid(inv []*mdstore.InvalidFile) {
	for _, f := range inv {
		fmt.Fprint(e.IO.ErrOut, e.IO.ErrStyle().Warning(fmt.Sprintf("curator: skipped %s (left untouched)\n", f.Error())))
	}
}
