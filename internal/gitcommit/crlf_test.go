package gitcommit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The line between text (CRLF converted) and binary (kept as it is) is
// where git draws it, checked against `git hash-object` on contents at
// its edges.
func TestAutoCRLFBinaryDetectionMatchesGit(t *testing.T) {
	s, dir := newStore(t)
	gitCmd(t, dir, "config", "core.autocrlf", "true")
	r, err := s.openRepo()
	if err != nil {
		t.Fatal(err)
	}
	p := func(n int) string { return strings.Repeat("x", n) }
	cases := map[string]string{
		"plain":               "a\r\nb\r\n",
		"lone CR at the end":  "a\r\nb\r",
		"lone CR first":       "\ra\r\n",
		"NUL":                 "a\r\n\x00\r\n",
		"DEL":                 "a\r\n\x7f\r\n",
		"printable controls":  "a\r\n\b\t\x1b\x0c\r\n",
		"128 and 1 control":   p(128) + "\x01\r\n",
		"127 and 1 control":   p(127) + "\x01\r\n",
		"256 and 2 controls":  p(256) + "\x01\x02\r\n",
		"255 and 2 controls":  p(255) + "\x01\x02\r\n",
		"final ^Z":            p(10) + "\r\n\x1a",
		"final ^Z, 1 control": p(10) + "\x01\r\n\x1a",
		"UTF-8":               "caf\xc3\xa9\r\nna\xc3\xafve\r\n",
	}
	for name, content := range cases {
		f := filepath.Join(dir, "probe.md")
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSpace(gitCmd(t, dir, "hash-object", "--path", "probe.md", "probe.md"))
		if got := newBlob(r.toGit([]byte(content))).hash.String(); got != want {
			t.Errorf("%s (%q): curator's blob %s, git's %s", name, content, got, want)
		}
	}
}
