package store

import (
	"os"
	"strings"
	"testing"
)

// With core.autocrlf (true or input), the blobs of records curator writes
// are the blobs `git add` would make of the same files: CRLF line ends
// become LF in a text file, and a file git takes for binary (a lone CR,
// many control characters) is stored as it is. So `git add --renormalize`
// finds nothing to change, and `git status` and `git diff` stay empty.
func TestAutoCRLFCommitsBlobsAsGitDoes(t *testing.T) {
	records := map[string]string{
		"memory/inbox/crlf.md":    "---\r\nid: crlf\r\n---\r\nline one\r\nline two\r\n",
		"memory/inbox/lf.md":      "---\nid: lf\n---\nline\n",
		"memory/inbox/mixed.md":   "---\r\nid: mixed\n---\r\nline\n",
		"memory/inbox/lone-cr.md": "---\r\nid: lone-cr\r\n---\r\nold mac\rline\r\n",
		"memory/inbox/control.md": "---\r\nid: control\r\n---\r\n\x01\x02\x03\x04\r\n",
	}
	for _, mode := range []string{"true", "input"} {
		t.Run("autocrlf="+mode, func(t *testing.T) {
			s, dir := settingsRepo(t)
			gitCmd(t, dir, "config", "core.autocrlf", mode)
			cs := &Changeset{}
			for p, c := range records {
				cs.Write(p, []byte(c))
			}
			cs.Move("memory/inbox/a.md", "memory/confirmed/fact/a.md", []byte("---\r\nid: a\r\nstatus: confirmed\r\n---\r\n"))
			if _, err := s.save(cs, info("crlf"), SaveOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, ch := range cs.Changes {
				p := ch.Path
				path := ".curator/" + p
				committed := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD:"+path))
				byGit := strings.TrimSpace(gitCmd(t, dir, "hash-object", "--path", path, path))
				if committed != byGit {
					t.Errorf("%s: committed blob %s, git add makes %s", p, committed, byGit)
				}
			}
			if blob := gitCmd(t, dir, "cat-file", "-p", "HEAD:.curator/memory/inbox/crlf.md"); strings.Contains(blob, "\r") {
				t.Errorf("committed crlf.md keeps CR: %q", blob)
			}
			if blob := gitCmd(t, dir, "cat-file", "-p", "HEAD:.curator/memory/confirmed/fact/a.md"); strings.Contains(blob, "\r") {
				t.Errorf("committed moved a.md keeps CR: %q", blob)
			}
			if b, _ := os.ReadFile(s.Path("memory/inbox/crlf.md")); string(b) != records["memory/inbox/crlf.md"] {
				t.Errorf("the file on disk is not the record written: %q", b)
			}
			checkClean := func(step string) {
				t.Helper()
				if st := gitCmd(t, dir, "status", "--porcelain"); st != "" {
					t.Errorf("%s: status:\n%s", step, st)
				}
				if d := gitCmd(t, dir, "diff"); d != "" {
					t.Errorf("%s: git diff:\n%s", step, d)
				}
				if d := gitCmd(t, dir, "diff", "--cached"); d != "" {
					t.Errorf("%s: git diff --cached:\n%s", step, d)
				}
			}
			checkClean("after the run")
			gitCmd(t, dir, "add", "--renormalize", ".")
			checkClean("after git add --renormalize")
			gitCmd(t, dir, "fsck", "--strict")

			// An edit of a CRLF record by a later run is a one-line change
			// ("+++ b/..." and the added line).
			cs = &Changeset{}
			cs.Write("memory/inbox/crlf.md", []byte("---\r\nid: crlf\r\nhelpful: 2\r\n---\r\nline one\r\nline two\r\n"))
			if _, err := s.save(cs, info("crlf-2"), SaveOptions{}); err != nil {
				t.Fatal(err)
			}
			if d := gitCmd(t, dir, "show", "--format=", "HEAD"); strings.Count(d, "\n+") != 2 || !strings.Contains(d, "\n+helpful: 2\n") || strings.Contains(d, "\r") {
				t.Errorf("the edit's diff is not one added line:\n%s", d)
			}
			gitCmd(t, dir, "add", "--renormalize", ".")
			checkClean("after the second run and git add --renormalize")
		})
	}
}
