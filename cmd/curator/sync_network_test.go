package main

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A remote that never answers, a sync waiting on it, another curator run
// beside it, and a remote that keeps moving: sync holds the store's lock
// only to merge, gives up on a silent remote after --timeout, and says
// when it ran out of retries.

// silentRemote listens on 127.0.0.1 and accepts connections it never
// answers; accepted gets a value for each one.
func silentRemote(t *testing.T) (url string, accepted chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = make(chan struct{}, 16)
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			accepted <- struct{}{}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "git://" + ln.Addr().String() + "/store.git", accepted
}

// syncClone is a store with one commit whose origin is url.
func syncClone(t *testing.T, url string) string {
	t.Helper()
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q", "-b", "main")
	curator(t, dir, "init")
	gitIn(t, dir, "remote", "add", "origin", url)
	return dir
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// curatorExit runs curator in dir and returns its exit status and stderr.
func curatorExit(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("curator", args...)
	cmd.Dir = dir
	var errb strings.Builder
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, errb.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), errb.String()
	}
	t.Fatal(err)
	return 0, ""
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs the git binary")
	}
	gitEnv(t)
}

// A remote that accepts the connection and never answers: sync gives up
// after --timeout with exit 1, saying what timed out and what to do.
func TestSyncTimeoutOnSilentRemote(t *testing.T) {
	needGit(t)
	url, _ := silentRemote(t)
	dir := syncClone(t, url)
	start := time.Now()
	code, stderr := curatorExit(t, dir, "sync", "--timeout", "1s")
	took := time.Since(start)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	for _, want := range []string{"fetching main from " + url, "no answer within 1s", "--timeout", "nothing was changed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("message lacks %q:\n%s", want, stderr)
		}
	}
	if took > 15*time.Second {
		t.Errorf("sync took %v with --timeout 1s", took)
	}
}

// While a sync waits on the network, another curator run changes the
// store: sync holds the store's lock only to merge and commit.
func TestMemoryAddWhileSyncFetches(t *testing.T) {
	needGit(t)
	url, accepted := silentRemote(t)
	dir := syncClone(t, url)
	sync := exec.Command("curator", "sync", "--timeout", "60s")
	sync.Dir = dir
	if err := sync.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = sync.Wait(); close(exited) }()
	t.Cleanup(func() {
		sync.Process.Kill() // the sync this test started
		<-exited
	})
	select {
	case <-accepted:
	case <-exited:
		t.Fatalf("sync ended before fetching: %v", waitErr)
	case <-time.After(30 * time.Second):
		t.Fatal("sync never connected to the remote")
	}
	time.Sleep(200 * time.Millisecond) // sync is waiting for the remote's answer
	code, stderr := curatorExit(t, dir, "--lock-timeout", "2s", "memory", "add", "--type", "fact", "--brief", "beside a sync",
		"--author", "a", "--proximity", "0.5", "--id", "f-beside", "body")
	if code != 0 {
		t.Fatalf("memory add beside a waiting sync: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/memory/inbox/f-beside.md")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
		t.Fatalf("sync ended while the remote was silent: %v", waitErr)
	default:
	}
}

// A remote whose branch moves at every push: sync tries --retries more
// times, then says it ran out, how many attempts it made, that the merge
// is kept here, and what to run next (exit 1).
func TestSyncRetriesRunOut(t *testing.T) {
	needGit(t)
	root := t.TempDir()
	remote := filepath.Join(root, "remote.git")
	gitIn(t, root, "init", "-q", "--bare", "-b", "main", remote)
	dir := syncClone(t, remote)
	curator(t, dir, "sync")
	// Each push finds the branch moved by someone else.
	hook := "#!/bin/sh\n" +
		"new=$(git commit-tree -p \"$2\" -m 'someone else' \"$2^{tree}\")\n" +
		"git update-ref \"$1\" \"$new\"\n"
	write(t, filepath.Join(remote, "hooks", "update"), []byte(hook))
	if err := os.Chmod(filepath.Join(remote, "hooks", "update"), 0o755); err != nil {
		t.Fatal(err)
	}
	curator(t, dir, "memory", "add", "--type", "fact", "--brief", "to share", "--author", "a", "--proximity", "0.5", "--id", "f-share", "body")
	code, stderr := curatorExit(t, dir, "sync", "--retries", "2")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	for _, want := range []string{"3 attempts", "kept moving", "curator sync"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("message lacks %q:\n%s", want, stderr)
		}
	}
}
