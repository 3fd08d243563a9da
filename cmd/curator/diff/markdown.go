package diffcmd

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/curator-dev/curator/history"
)

// foldAfter is how many changes of one kind a section shows before it
// folds the list into <details>.
const foldAfter = 10

// Markdown writes a review summary: the counts, the warnings, then a
// section per kind of change, long lists folded. Text from records is
// HTML-escaped, so a record cannot put markup into the review.
func Markdown(w io.Writer, res *history.Result) error {
	b := bufio.NewWriter(w)
	fmt.Fprintln(b, "## Curator changes")
	fmt.Fprintln(b)
	if len(res.Changes) == 0 {
		fmt.Fprintln(b, "No record changes.")
	}
	var counts []string
	for _, k := range history.ChangeKinds {
		if n := res.Counts[k]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, k))
		}
	}
	if len(counts) > 0 {
		fmt.Fprintf(b, "**%s**\n\n", strings.Join(counts, ", "))
	}
	if len(res.Warnings) > 0 {
		fmt.Fprintf(b, "### ⚠ Warnings (%d)\n\n", len(res.Warnings))
		for _, wn := range res.Warnings {
			fmt.Fprintf(b, "- **%s** %s `%s`: %s\n", esc(wn.Kind), esc(wn.ID), code(wn.Path), esc(wn.Message))
		}
		fmt.Fprintln(b)
	}
	for _, k := range history.ChangeKinds {
		var cs []history.Change
		for _, c := range res.Changes {
			if c.Kind == k {
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			continue
		}
		fmt.Fprintf(b, "### %s (%d)\n\n", strings.ToUpper(k[:1])+k[1:], len(cs))
		fold := len(cs) > foldAfter
		if fold {
			fmt.Fprintf(b, "<details><summary>%d %s</summary>\n\n", len(cs), k)
		}
		for _, c := range cs {
			fmt.Fprintf(b, "- %s **%s** %s\n", esc(c.Record), esc(c.ID), esc(strings.Join(details(c), "; ")))
		}
		if fold {
			fmt.Fprintln(b, "\n</details>")
		}
		fmt.Fprintln(b)
	}
	return b.Flush()
}

// escaper turns record text into inline markdown text: the characters of
// HTML become entities and those of inline markdown syntax are backslashed.
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\n", " ", "\r", " ",
	"\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]", "|", "\\|")

// esc escapes record text for one markdown list item.
func esc(s string) string { return escaper.Replace(s) }

// code is text to put between backticks (a path).
func code(s string) string { return strings.ReplaceAll(s, "`", "'") }
