package diffcmd

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/curator-dev/curator/history"
)

// Text writes one line per change, then one per warning.
func Text(w io.Writer, res *history.Result) error {
	b := bufio.NewWriter(w)
	for _, c := range res.Changes {
		fmt.Fprintf(b, "%-10s  %s  %s\n", c.Kind, c.ID, strings.Join(details(c), "  "))
	}
	for _, wn := range res.Warnings {
		fmt.Fprintf(b, "warning: %s %s (%s): %s\n", wn.Record, wn.ID, wn.Path, wn.Message)
	}
	if len(res.Changes) == 0 {
		fmt.Fprintln(b, "no record changes")
	}
	return b.Flush()
}

// details are the parts of a change's line after its kind and id.
func details(c history.Change) []string {
	var out []string
	switch {
	case c.Kind == history.Invalid:
		where := c.Path
		if c.Line > 0 {
			where += fmt.Sprintf(":%d", c.Line)
		}
		return []string{where + " (" + c.Side + "): " + c.Error}
	case c.From != "" && c.To != "":
		out = append(out, c.From+" → "+c.To)
	case c.Kind == history.Removed:
		out = append(out, c.Path)
	default:
		out = append(out, c.Path)
	}
	if c.Reason != "" {
		out = append(out, "reason: "+c.Reason)
	}
	if len(c.Parents) > 0 {
		out = append(out, "from "+strings.Join(c.Parents, ", "))
	}
	for _, k := range history.SortedKeys(c.Keys) {
		kc := c.Keys[k]
		out = append(out, k+" "+history.Value(kc.Old)+" → "+history.Value(kc.New))
	}
	if c.Body {
		out = append(out, "body changed")
	}
	for _, s := range c.Sentences {
		out = append(out, "+ "+s)
	}
	return out
}
