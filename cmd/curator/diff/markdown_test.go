package diffcmd

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/curator-dev/curator/history"
)

// TestMarkdownEscapesRecords renders a review whose records carry HTML and
// markdown syntax: the only tags in the page are the review's own.
func TestMarkdownEscapesRecords(t *testing.T) {
	evil := "<script>alert(1)</script> <img src=x onerror=alert(2)> **bold** [link](http://x) `tick` | pipe"
	var files []history.File
	for i := 0; i < 12; i++ { // enough to fold the section
		files = append(files, history.File{Path: fmt.Sprintf("memory/inbox/m-%d.md", i),
			New: []byte("---\nid: m-" + fmt.Sprint(i) + "\ntype: fact\nbrief: x\n---\nbody\n")})
	}
	files = append(files,
		history.File{Path: "memory/inbox/h-1.md", Old: []byte("---\nid: h-1\nbrief: plain\n---\n"), New: []byte("---\nid: h-1\nbrief: \"" + evil + "\"\n---\n")},
		history.File{Path: "memory/inbox/h-2.md", Old: []byte("---\nid: h-2\nbrief: plain\n---\n"), New: []byte("---\nid: h-2\ntags: [<b>\n---\n")},
		history.File{Path: "memory/inbox/h-3.md", Old: []byte("---\nid: h-3\nbrief: x\n---\n")},
	)
	res := history.Diff(files, history.Options{})
	var md bytes.Buffer
	if err := Markdown(&md, res); err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := goldmark.New(goldmark.WithRendererOptions(html.WithUnsafe())).Convert(md.Bytes(), &page); err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"h2": true, "h3": true, "p": true, "strong": true, "ul": true, "li": true, "code": true, "details": true, "summary": true}
	for _, m := range regexp.MustCompile(`</?([a-zA-Z0-9]+)`).FindAllStringSubmatch(page.String(), -1) {
		if !allowed[strings.ToLower(m[1])] {
			t.Errorf("tag <%s> from a record in the rendered review:\n%s", m[1], page.String())
		}
	}
	for _, want := range []string{"&lt;script&gt;", "<details><summary>12 added</summary>", "**bold**", "Warnings (2)"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("rendered review lacks %q:\n%s", want, page.String())
		}
	}
	if !strings.HasPrefix(md.String(), "## Curator changes\n\n**1 invalid, 12 added, 1 edited, 1 removed**") {
		t.Errorf("counts do not come first:\n%s", md.String())
	}
}
