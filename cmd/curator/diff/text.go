package diffcmd

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/history"
)

// Text writes one line per change, then one per warning; with color, each
// change's kind is coloured in the decision palette of every curator
// report (green what was gained, red what was lost, yellow what was set
// aside, cyan edits) and warnings are yellow.
func Text(w io.Writer, res *history.Result, color bool) error {
	st := cmdutil.Style{Color: color}
	b := bufio.NewWriter(w)
	for _, c := range res.Changes {
		kind := st.Decision(c.Kind, fmt.Sprintf("%-10s", c.Kind))
		fmt.Fprintf(b, "%s  %s  %s\n", kind, c.ID, strings.Join(details(c), "  "))
	}
	for _, wn := range res.Warnings {
		label := st.Warning("warning:")
		fmt.Fprintf(b, "%s %s %s (%s): %s\n", label, wn.Record, wn.ID, wn.Path, wn.Message)
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
	switch {
	case c.BodyDiff != "":
		out = append(out, "body: "+c.BodyDiff)
	case c.Body:
		out = append(out, "body changed")
	}
	for _, s := range c.Sentences {
		out = append(out, "+ "+s)
	}
	return out
}
