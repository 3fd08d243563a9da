package mdstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fake GitHub token (built in pieces; not a live credential).
var fakeToken = "ghp_" + "R8kd93LmQz7XwP2vB5nT6yH1cJ4aF0sE9gUi"

// The last guard: a run whose files, paths or commit message hold a secret
// writes nothing (no journal, no file, no commit), and the error names the
// path and the rule.
func TestSaveRefusesSecrets(t *testing.T) {
	cases := []struct {
		name, where string
		change      func(*Changeset)
		info        CommitInfo
	}{
		{"data", "memory/inbox/m1.md", func(c *Changeset) {
			c.Write("memory/inbox/m1.md", []byte("---\nid: m1\n---\nuse "+fakeToken+"\n"))
		}, info("r1")},
		{"moved data", "memory/trash/m1.md", func(c *Changeset) {
			c.Move("memory/inbox/m1.md", "memory/trash/m1.md", []byte("token "+fakeToken))
		}, info("r1")},
		{"path", "memory/inbox/[REDACTED:github-token].md", func(c *Changeset) {
			c.Write("memory/inbox/"+fakeToken+".md", []byte("x"))
		}, info("r1")},
		{"commit message", "commit message", func(c *Changeset) {
			c.Write("memory/inbox/m2.md", []byte("fine"))
		}, CommitInfo{Summary: "memory add", Decisions: []string{"add m2: " + fakeToken}, RunID: "r1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, dir := newStore(t)
			before := headOf(t, s)
			cs := &Changeset{}
			c.change(cs)
			_, err := s.save(cs, c.info, SaveOptions{})
			var se *SecretError
			if !errors.Is(err, ErrSecret) || !errors.As(err, &se) || se.Path != c.where || se.Rule != "github-token" {
				t.Fatalf("got %v, want a github-token secret in %s", err, c.where)
			}
			if strings.Contains(err.Error(), fakeToken) {
				t.Errorf("the error prints the secret: %v", err)
			}
			if ents, _ := os.ReadDir(filepath.Join(s.Dir, ".journal")); len(ents) > 0 {
				t.Errorf("a journal was written: %v", ents)
			}
			if _, err := os.Stat(s.Path("memory/inbox/m1.md")); err == nil {
				t.Errorf("the file was written")
			}
			if after := headOf(t, s); after != before {
				t.Errorf("HEAD moved %s → %s", before, after)
			}
			_ = dir
		})
	}
}

// The allow-list of config.yaml and the inline marker let a value through.
func TestSaveAllowList(t *testing.T) {
	s, _ := newStore(t)
	cfg := "secrets:\n  allow: ['^ghp_R8kd93']\n"
	if err := os.WriteFile(s.Path("config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cs := &Changeset{}
	cs.Write("memory/inbox/m1.md", []byte("example "+fakeToken+"\nand AKIA"+"QWJ4ZT7NRX5LBV2M # curator:allow-secret\n"))
	if _, err := s2.save(cs, info("r1"), SaveOptions{}); err != nil {
		t.Fatalf("allowed values refused: %v", err)
	}
	os.WriteFile(s.Path("config.yaml"), []byte("secrets:\n  allow: ['(']\n"), 0o644)
	if _, err := Open(s.Dir); err == nil || !strings.Contains(err.Error(), "config.yaml:2: secrets.allow: item 1: \"(\" is not a regular expression") {
		t.Errorf("a bad allow pattern: %v", err)
	}
}

func headOf(t *testing.T, s *Store) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(filepath.Dir(s.Dir), ".git", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	ref := strings.TrimSpace(strings.TrimPrefix(string(data), "ref: "))
	h, _ := os.ReadFile(filepath.Join(filepath.Dir(s.Dir), ".git", ref))
	return string(h)
}
