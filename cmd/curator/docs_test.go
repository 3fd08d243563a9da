package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs are the documents a user reads, relative to the repository root.
var docs = []string{"README.md", "SPEC.md", "ARCHITECTURE.md", "BENCHMARKS.md", "curate/CONTEXT.md", "pipeline/README.md"}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinks checks that every link of the documents resolves inside the
// repository: the file exists and so does the heading an anchor names.
func TestDocLinks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docs {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(link, "#")
			target := filepath.Join(root, filepath.Dir(doc), filepath.FromSlash(path))
			if path == "" {
				target = filepath.Join(root, doc)
			}
			if rel, err := filepath.Rel(root, target); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s: link %s leads out of the repository", doc, link)
				continue
			}
			body, err := os.ReadFile(target)
			if err != nil {
				if fi, serr := os.Stat(target); serr == nil && fi.IsDir() && anchor == "" {
					continue
				}
				t.Errorf("%s: link %s: %v", doc, link, err)
				continue
			}
			if anchor != "" && !hasAnchor(string(body), anchor) {
				t.Errorf("%s: link %s: no heading with that anchor in %s", doc, link, path)
			}
		}
	}
}

// hasAnchor reports whether markdown has a heading whose GitHub anchor is a.
func hasAnchor(markdown, a string) bool {
	for _, line := range strings.Split(markdown, "\n") {
		h, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		h = strings.TrimSpace(strings.TrimLeft(h, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		if b.String() == a {
			return true
		}
	}
	return false
}

// TestDocsSpeakToUsers: the documents describe curator, not how it was
// made.
func TestDocsSpeakToUsers(t *testing.T) {
	building := regexp.MustCompile(`(?i)\bissue ?#?\d+|\bthe issue\b|\bthe seed\b|\bseed's\b|\bsession \d|\bsession's\b|\bthe audit\b`)
	for _, doc := range docs {
		data, err := os.ReadFile(filepath.Join("../..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := building.FindString(line); m != "" {
				t.Errorf("%s:%d: %q speaks of how curator was made: %s", doc, i+1, m, line)
			}
		}
	}
}
