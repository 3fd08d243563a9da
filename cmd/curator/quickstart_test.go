//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadmeQuickstart runs the README's quickstart as a reader would, in
// a new folder ~/src/myapp of a fresh home: every command of the block, in
// order, except the `go install` of this source tree (the test's curator
// is on PATH). It checks what the comments promise, and that the README
// still starts with its two commands.
func TestReadmeQuickstart(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	first := "# curator\n\n```sh\nexamples/demo.sh "
	if !strings.HasPrefix(text, first) || !strings.Contains(text[:300], "\ngo test ./... ") {
		t.Fatalf("the README does not start with examples/demo.sh and go test ./...:\n%.300s", text)
	}
	block := regexp.MustCompile("(?s)\n## Quickstart[^\n]*\n.*?```sh\n(.*?)\n```\n").FindStringSubmatch(text)
	if block == nil {
		t.Fatal("the README has no ## Quickstart section with a sh block")
	}
	var script []string
	for _, line := range strings.Split(block[1], "\n") {
		if strings.HasPrefix(line, "go install ./cmd/curator") {
			continue
		}
		script = append(script, line)
	}
	// the quickstart chains the first hour's commands, in this order
	at := 0
	for _, cmd := range []string{"curator init", "curator memory add", "curator memory curate", "curator context reflect",
		"curator context curate", "curator pipeline transition", "curator watch", "curator log", "curator diff"} {
		i := strings.Index(block[1][at:], "\n"+cmd)
		if i < 0 {
			t.Fatalf("the quickstart has no %q after what comes before it", cmd)
		}
		at += i + 1
	}

	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "src/myapp"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "-e", "-c", strings.Join(script, "\n"))
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "NO_COLOR=1")
	// its own process group, so that a watch left behind by a failure is
	// stopped with the script
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, err := cmd.CombinedOutput()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if err != nil {
		t.Fatalf("the quickstart failed: %v\n%s", err, out)
	}
	for _, want := range []string{
		"Initialised curator store in " + filepath.Join(home, "src/myapp/.curator"),
		"→ confirmed/fact (channel A",
		"TESTING-001: New bullet added (confidence: 0.90)",
		"Injected 1 bullet into CLAUDE.md",
		"ok spec.md",
		"context-briefs/myapp/2-implementer-step-1.md",
		"memory-curate  window",
		"1 promoted, 0 duplicate(s) trashed, 0 discarded, 0 kept [commit ",
		"pipeline myapp: spec-writer → implementer",
		"inbox → confirmed/fact",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the quickstart's output lacks %q:\n%s", want, out)
		}
	}
	// one commit per run: init, add, curate, reflect, curate, transition,
	// the maintenance its phase completion runs, add, watch's curate
	runs := regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d  [0-9a-f]{10}  `).FindAllString(string(out), -1)
	if len(runs) != 9 {
		t.Errorf("curator log lists %d runs, want 9:\n%s", len(runs), out)
	}
}
