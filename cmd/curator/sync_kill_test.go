package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// A `curator sync` killed while it fetches — by SIGKILL at the moment a
// pack file appears in objects/pack, at a sweep of instants through the
// run, or stopped by SIGINT — leaves a repository the next sync brings to
// the remote's tip (exit 0, its own commit pushed) and that `git fsck
// --strict` finds clean, with no temporary pack file left behind.

// syncKill is one way of stopping a sync.
type syncKill struct {
	name string
	sig  syscall.Signal
	// file is the start of the name of the file in objects/pack (or in
	// dir, a folder of .git, with any event) whose appearance triggers
	// the signal ("" for a delay).
	file, ext string
	dir       string
	delay     time.Duration
}

func TestSyncKilledDuringFetch(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs the git binary")
	}
	gitEnv(t)
	root := t.TempDir()
	tmpl := killTemplate(t, root)

	// One sync run to its end: how long it takes sets the sweep.
	dir := killCopy(t, tmpl, filepath.Join(root, "whole"))
	start := time.Now()
	curator(t, filepath.Join(dir, "clone"), "sync")
	whole := time.Since(start)
	checkConverged(t, dir)
	t.Logf("a whole sync took %v", whole)

	cases := []syncKill{
		{name: "SIGKILL at the first temporary pack", sig: syscall.SIGKILL, file: "tmp_pack"},
		{name: "SIGKILL at the first temporary index", sig: syscall.SIGKILL, file: "tmp_idx"},
		{name: "SIGKILL at the pack's index", sig: syscall.SIGKILL, file: "pack-", ext: ".idx"},
		{name: "SIGKILL at the pack", sig: syscall.SIGKILL, file: "pack-", ext: ".pack"},
		{name: "SIGINT at the first temporary pack", sig: syscall.SIGINT, file: "tmp_pack"},
		{name: "SIGKILL at the remote-tracking branch", sig: syscall.SIGKILL, dir: "refs/remotes/origin", file: "main"},
	}
	const sweep = 4
	for i := range sweep {
		d := whole * time.Duration(i) / sweep
		cases = append(cases, syncKill{name: fmt.Sprintf("SIGKILL after %v", d.Round(time.Millisecond)), sig: syscall.SIGKILL, delay: d})
	}
	cases = append(cases, syncKill{name: "SIGINT after " + (whole / 4).Round(time.Millisecond).String(), sig: syscall.SIGINT, delay: whole / 4})
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := killCopy(t, tmpl, filepath.Join(root, fmt.Sprintf("k%d", i)))
			clone := filepath.Join(dir, "clone")
			code, stderr, fired := killSync(t, clone, c)
			t.Logf("signal sent: %v; exit %d; %s", fired, code, strings.TrimSpace(stderr))
			if c.sig == syscall.SIGINT && fired {
				// Ctrl-C stops the run as a failure (SPEC §3), leaving no
				// partial pack behind.
				if code != 1 && code != 0 {
					t.Errorf("SIGINT: exit %d, want 1 (or 0 when it came after the push): %s", code, stderr)
				}
				checkPackFolder(t, clone)
			}
			cmd := exec.Command("curator", "sync")
			cmd.Dir = clone
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("the sync after the kill failed: %v\n%s", err, out)
			}
			checkConverged(t, dir)
			checkPackFolder(t, clone)
		})
	}
}

// killTemplate makes root/tmpl/remote.git, a bare remote holding a
// history of some thousands of objects (a pack of a few megabytes), and
// root/tmpl/clone, a clone of its first commit with one commit of its own.
func killTemplate(t *testing.T, root string) string {
	tmpl := filepath.Join(root, "tmpl")
	remote := filepath.Join(tmpl, "remote.git")
	clone := filepath.Join(tmpl, "clone")
	mustGit(t, root, "init", "-q", "--bare", "-b", "main", remote)
	mustGit(t, root, "init", "-q", "-b", "main", clone)
	curator(t, clone, "init")
	mustGit(t, clone, "remote", "add", "origin", remote)
	mustGit(t, clone, "push", "-q", "origin", "main")
	base := strings.TrimSpace(mustGit(t, clone, "rev-parse", "HEAD"))

	// The remote's history: commits each rewriting one of 40 files of
	// random bytes outside the store, written by fast-import.
	var in bytes.Buffer
	rng := rand.New(rand.NewPCG(7, 11))
	data := make([]byte, 8000)
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&in, "commit refs/heads/main\nmark :%d\ncommitter test <test@example.com> %d +0000\n", i, 1700000000+i)
		msg := fmt.Sprintf("data %d", i)
		fmt.Fprintf(&in, "data %d\n%s\n", len(msg), msg)
		if i == 1 {
			fmt.Fprintf(&in, "from %s\n", base)
		}
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		fmt.Fprintf(&in, "M 644 inline data/f%02d.bin\ndata %d\n", i%40, len(data))
		in.Write(data)
		in.WriteString("\n")
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = remote
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	curator(t, clone, "memory", "add", "--type", "fact", "--brief", "kept across kills", "--author", "a",
		"--proximity", "0.5", "--id", "f-kill", "body")
	return tmpl
}

// killCopy copies the template to dir and points the clone at its copy
// of the remote.
func killCopy(t *testing.T, tmpl, dir string) string {
	if out, err := exec.Command("cp", "-a", tmpl, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	mustGit(t, filepath.Join(dir, "clone"), "remote", "set-url", "origin", filepath.Join(dir, "remote.git"))
	return dir
}

// killSync starts `curator sync` in clone and sends the case's signal,
// then returns its exit status, its stderr and whether the signal was
// sent before it ended.
func killSync(t *testing.T, clone string, c syncKill) (int, string, bool) {
	watched := filepath.Join(clone, ".git", "objects", "pack")
	if c.dir != "" {
		watched = filepath.Join(clone, ".git", filepath.FromSlash(c.dir))
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(watched); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("curator", "sync")
	cmd.Dir = clone
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	fired := false
	var timer <-chan time.Time
	if c.file == "" {
		timer = time.After(c.delay)
	}
	var err2 error
wait:
	for {
		select {
		case ev := <-w.Events:
			name := filepath.Base(ev.Name)
			if !fired && (ev.Has(fsnotify.Create) || c.dir != "") && strings.HasPrefix(name, c.file) && strings.HasSuffix(name, c.ext) {
				cmd.Process.Signal(c.sig)
				fired = true
			}
		case <-timer:
			cmd.Process.Signal(c.sig)
			fired = true
		case err2 = <-done:
			break wait
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("sync did not end")
		}
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err2, &ee) {
		code = ee.ExitCode()
	} else if err2 != nil {
		t.Fatal(err2)
	}
	return code, stderr.String(), fired
}

// checkConverged checks that the clone holds the remote's tip, that the
// clone's own commit reached the remote, and that git finds both
// repositories sound.
func checkConverged(t *testing.T, dir string) {
	t.Helper()
	clone, remote := filepath.Join(dir, "clone"), filepath.Join(dir, "remote.git")
	head := strings.TrimSpace(mustGit(t, clone, "rev-parse", "HEAD"))
	tip := strings.TrimSpace(mustGit(t, remote, "rev-parse", "main"))
	if head != tip {
		t.Errorf("clone at %s, remote at %s", head, tip)
	}
	if out := mustGit(t, remote, "log", "--format=%s", "main"); !strings.Contains(out, "memory add") && !strings.Contains(out, "f-kill") {
		t.Errorf("the clone's own commit did not reach the remote:\n%.500s", out)
	}
	for _, d := range []string{clone, remote} {
		cmd := exec.Command("git", "fsck", "--strict", "--no-dangling")
		cmd.Dir = d
		out, err := cmd.CombinedOutput()
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("git fsck --strict in %s: %v\n%s", d, err, out)
		}
	}
	if out, err := exec.Command("git", "-C", clone, "status", "--porcelain").CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("git status after sync: %v\n%s", err, out)
	}
}

// checkPackFolder checks that objects/pack holds no temporary file and
// that every pack has its index.
func checkPackFolder(t *testing.T, clone string) {
	t.Helper()
	packDir := filepath.Join(clone, ".git", "objects", "pack")
	ents, err := os.ReadDir(packDir)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, e := range ents {
		names[e.Name()] = true
	}
	for n := range names {
		if strings.HasPrefix(n, "tmp_") {
			t.Errorf("temporary file left in objects/pack: %s", n)
		}
		if base, ok := strings.CutSuffix(n, ".pack"); ok && !names[base+".idx"] {
			t.Errorf("pack without its index: %s", n)
		}
	}
}
