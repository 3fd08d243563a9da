package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"

	"github.com/curator-dev/curator/mdstore"
)

// lockedStore makes a store whose lock this test holds until it ends.
func lockedStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	s, _, err := mdstore.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.Begin(mdstore.TxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tx.Close)
	return dir
}

// A second run waits --lock-timeout for the first, then exits 4 naming its pid.
func TestLockedStoreExits4(t *testing.T) {
	dir := lockedStore(t)
	var out, errb bytes.Buffer
	start := time.Now()
	code := run([]string{"curator", "--store", filepath.Join(dir, ".curator"), "--lock-timeout", "300ms",
		"memory", "curate", "--from", "2026-11-29T09:00:00Z", "--to", "2026-11-29T10:00:00Z"}, nil, &out, &errb)
	if code != cmdutil.ExitLocked {
		t.Fatalf("exit %d, want %d: %s", code, cmdutil.ExitLocked, errb.String())
	}
	if want := fmt.Sprintf("pid %d", os.Getpid()); !strings.Contains(errb.String(), want) {
		t.Errorf("message %q does not name %s", errb.String(), want)
	}
	if waited := time.Since(start); waited < 300*time.Millisecond {
		t.Errorf("gave up after %v, before the timeout", waited)
	}
}

func TestLockTimeoutZeroDoesNotWait(t *testing.T) {
	dir := lockedStore(t)
	start := time.Now()
	var out, errb bytes.Buffer
	code := run([]string{"curator", "--store", filepath.Join(dir, ".curator"), "memory", "curate", "--lock-timeout", "0s"}, nil, &out, &errb)
	if code != cmdutil.ExitLocked || time.Since(start) > 2*time.Second {
		t.Errorf("exit %d after %v", code, time.Since(start))
	}
}

func TestExitCodes(t *testing.T) {
	cases := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{fmt.Errorf("boom"), 1},
		{cmdutil.Usagef("bad"), 2},
		{cmdutil.Blocked(fmt.Errorf("no")), 3},
		{fmt.Errorf("wrapped: %w", &mdstore.LockError{PID: 7}), 4},
		{cmdutil.InvalidInputs{Files: []*mdstore.InvalidFile{{Path: "a"}}}, 5},
	}
	for _, c := range cases {
		if got := cmdutil.ExitCode(c.err); got != c.want {
			t.Errorf("%v: exit %d, want %d", c.err, got, c.want)
		}
	}
}
