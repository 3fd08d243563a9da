package pipeline

import (
	"html"
	"path"
	"regexp"
	"strings"
)

// An artifact may be an HTML page (a reviewer's review-report.html). Curator
// reads it as HTML, not as markdown: its text is what a browser would show
// (no tags, attributes, scripts or styles), with its <h1>…<h6> headings
// turned into markdown headings so that the brief's rules can pick its
// sections like those of a markdown artifact.

// isHTML reports whether an artifact path names an HTML file.
func isHTML(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".htm":
		return true
	}
	return false
}

var (
	htmlDropped  = regexp.MustCompile(`(?is)<!--.*?-->|<(script|style|head|template|noscript)\b[^>]*>.*?</(script|style|head|template|noscript)\s*>`)
	htmlHeading  = regexp.MustCompile(`(?is)<h([1-6])\b[^>]*>(.*?)</h[1-6]\s*>`)
	htmlItem     = regexp.MustCompile(`(?i)<li\b[^>]*>`)
	htmlBlock    = regexp.MustCompile(`(?i)</?(p|div|section|article|main|header|footer|aside|ul|ol|table|tr|blockquote|pre|dl|dt|dd|body|html|nav|figure)\b[^>]*>|<br\s*/?>`)
	htmlTag      = regexp.MustCompile(`(?s)<[^>]*>`)
	htmlElement  = regexp.MustCompile(`(?i)<(html|body|main|article|section|div|h[1-6]|p|ul|ol|table)\b`)
	blankLines   = regexp.MustCompile(`\n{3,}`)
	spaceRun     = regexp.MustCompile(`[ \t]+`)
	headingSpace = regexp.MustCompile(`\s+`)
)

// htmlText is the visible text of an HTML document as markdown: headings
// as "#" headings, list items as "- " items, blocks as paragraphs.
func htmlText(src string) string {
	s := htmlDropped.ReplaceAllString(src, "")
	s = htmlHeading.ReplaceAllStringFunc(s, func(m string) string {
		g := htmlHeading.FindStringSubmatch(m)
		title := strings.TrimSpace(headingSpace.ReplaceAllString(htmlTag.ReplaceAllString(g[2], ""), " "))
		return "\n\n" + strings.Repeat("#", int(g[1][0]-'0')) + " " + title + "\n\n"
	})
	s = htmlItem.ReplaceAllString(s, "\n- ")
	s = htmlBlock.ReplaceAllString(s, "\n\n")
	s = htmlTag.ReplaceAllString(s, "")
	s = html.UnescapeString(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(spaceRun.ReplaceAllString(l, " "))
	}
	s = blankLines.ReplaceAllString(strings.Join(lines, "\n"), "\n\n")
	return strings.TrimSpace(s) + "\n"
}

// readOutline reads an artifact's text: markdown as it is, HTML as its
// visible text.
func readOutline(name string, data []byte) *Outline {
	if isHTML(name) {
		return ParseOutline([]byte(htmlText(string(data))))
	}
	return ParseOutline(data)
}
