package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// curatedStore is a store whose history holds real curator runs: two
// reflections curated into bullets (one reinforced by the second).
func curatedStore(t *testing.T) string {
	t.Helper()
	dir := memoryStore(t)
	for i, lesson := range []string{
		"Tag the release commit only after the full test suite passes on the main branch.",
		"Tag the release commit only after the full test suite passes on the main branch.",
	} {
		f := filepath.Join(dir, "refl.json")
		os.WriteFile(f, []byte(`{"id": "refl-`+string(rune('1'+i))+`", "agent": "a", "lessons": [{"content": "`+lesson+`", "category": "strategy", "confidence": 0.9}]}`), 0o644)
		curator(t, dir, "context", "reflect", f)
		curator(t, dir, "context", "curate")
	}
	os.Remove(filepath.Join(dir, "refl.json"))
	return dir
}

// audit runs `curator audit args...` in dir: its exit status, stdout and
// stderr.
func audit(t *testing.T, dir string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command("curator", append([]string{"audit"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

func onlyFile(t *testing.T, pattern string) string {
	t.Helper()
	m, _ := filepath.Glob(pattern)
	if len(m) != 1 {
		t.Fatalf("%s: %d files", pattern, len(m))
	}
	return m[0]
}

// TestAuditHistory: a history of curator runs is clean (exit 0); a bullet
// edited by hand and committed with git, and a merge-log line rewritten,
// are findings that name their commits (exit 1); --since audits only what
// came after.
func TestAuditHistory(t *testing.T) {
	dir := curatedStore(t)
	if code, out, errOut := audit(t, dir, nil); code != 0 || !strings.Contains(out, "no finding") {
		t.Fatalf("clean history: exit %d\n%s%s", code, out, errOut)
	}
	clean := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))

	// a hand edit of a bullet, committed with plain git
	bullet := onlyFile(t, filepath.Join(dir, ".curator/context/bullets/strategy/*.md"))
	data, _ := os.ReadFile(bullet)
	os.WriteFile(bullet, []byte(strings.Replace(string(data), "Tag the release", "Tag any release", 1)), 0o644)
	mustGit(t, dir, "commit", "-q", "-am", "tweak a bullet")
	edit := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))

	// an earlier merge-log line rewritten
	logs, _ := filepath.Glob(filepath.Join(dir, ".curator/context/log/*/*/*.jsonl"))
	if len(logs) == 0 {
		t.Fatal("no merge log")
	}
	for _, l := range logs {
		if data, _ = os.ReadFile(l); strings.Contains(string(data), `"merge_type":"new_bullet"`) {
			os.WriteFile(l, []byte(strings.Replace(string(data), `"merge_type":"new_bullet"`, `"merge_type":"skip"`, 1)), 0o644)
		}
	}
	mustGit(t, dir, "commit", "-q", "-am", "quiet the log")
	rewrite := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))

	code, out, errOut := audit(t, dir, nil, "--json")
	if code != 1 {
		t.Fatalf("audit after the edits: exit %d, want 1\n%s%s", code, out, errOut)
	}
	var rep struct {
		Commits  int
		Clean    bool
		Findings []struct{ Kind, Commit, Path, Bullet, Message string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	kinds := map[string]string{}
	for _, f := range rep.Findings {
		kinds[f.Kind+" "+f.Commit] = f.Message
	}
	for _, want := range []string{"unexplained_bullet_change " + edit, "outside_curator " + edit, "merge_log_rewritten " + rewrite, "outside_curator " + rewrite} {
		if _, ok := kinds[want]; !ok {
			t.Errorf("no finding %s in %v", want, kinds)
		}
	}
	if len(rep.Findings) != 4 || rep.Clean {
		t.Errorf("findings: %+v", rep.Findings)
	}
	if m := kinds["merge_log_rewritten "+rewrite]; !strings.Contains(m, "line 1 was rewritten") {
		t.Errorf("the rewritten line: %q", m)
	}
	// the text names both commits too
	_, out, _ = audit(t, dir, nil)
	for _, c := range []string{edit[:12], rewrite[:12]} {
		if !strings.Contains(out, c) {
			t.Errorf("text report does not name %s:\n%s", c, out)
		}
	}
	// --since the clean commit audits the two edits only; before them, clean
	if code, out, _ := audit(t, dir, nil, "--json", "--since", clean); code != 1 || !strings.Contains(out, `"commits": 2`) {
		t.Errorf("--since %s: exit %d\n%s", clean, code, out)
	}
	if code, out, errOut := audit(t, dir, nil, "--range", clean); code != 0 {
		t.Errorf("--range %s: exit %d\n%s%s", clean, code, out, errOut)
	}
}

// TestAuditAccess: with an access section, audit needs level 5.
func TestAuditAccess(t *testing.T) {
	dir := accessStore(t)
	code, _, errOut := audit(t, dir, []string{"CURATOR_AGENT=lead"})
	if code != 6 || !strings.Contains(errOut, `agent "lead" has access level 4; auditing the store's history needs level 5 (system)`) {
		t.Fatalf("audit as lead: exit %d\n%s", code, errOut)
	}
}

// readmeHook is the pre-receive hook the README gives.
func readmeHook(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "```sh\n#!/bin/sh\n# pre-receive")
	hook, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README has no pre-receive hook")
	}
	return "#!/bin/sh\n# pre-receive" + hook
}

// TestAuditPreReceive installs the README's hook in a bare repository: a
// push of curator's runs is taken, a push of a bullet edited by hand is
// refused and the branch stays where it was.
func TestAuditPreReceive(t *testing.T) {
	dir := curatedStore(t)
	bare := filepath.Join(t.TempDir(), "remote.git")
	mustGit(t, dir, "init", "-q", "--bare", bare)
	if err := os.WriteFile(filepath.Join(bare, "hooks", "pre-receive"), []byte(readmeHook(t)), 0o755); err != nil {
		t.Fatal(err)
	}
	branch := strings.TrimSpace(mustGit(t, dir, "branch", "--show-current"))
	mustGit(t, dir, "push", "-q", bare, branch)

	// one more curator run is taken too (old..new)
	f := filepath.Join(dir, "refl.json")
	os.WriteFile(f, []byte(`{"id": "refl-9", "agent": "a", "lessons": [{"content": "Write the changelog entry in the same pull request as the change it describes.", "category": "strategy", "confidence": 0.9}]}`), 0o644)
	curator(t, dir, "context", "reflect", f)
	curator(t, dir, "context", "curate")
	os.Remove(f)
	mustGit(t, dir, "push", "-q", bare, branch)
	pushed := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))

	bullet := onlyFile(t, filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md"))
	data, _ := os.ReadFile(bullet)
	os.WriteFile(bullet, []byte(strings.Replace(string(data), "helpful_count: 1", "helpful_count: 40", 1)), 0o644)
	mustGit(t, dir, "commit", "-q", "-am", "more helpful")
	edit := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))

	out, err := gitOut(dir, "push", bare, branch)
	if err == nil {
		t.Fatalf("the push of a hand edit was taken:\n%s", out)
	}
	for _, want := range []string{"pre-receive hook declined", edit[:12], "bullet STRAT-001 changed outside curator", "curator audit refused refs/heads/" + branch} {
		if !strings.Contains(out, want) {
			t.Errorf("push output does not say %q:\n%s", want, out)
		}
	}
	if got := strings.TrimSpace(mustGit(t, bare, "rev-parse", branch)); got != pushed {
		t.Errorf("the remote's %s moved to %s, want %s", branch, got, pushed)
	}
}
