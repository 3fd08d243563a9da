package initcmd

import (
	"strings"
	"testing"

	"github.com/curator-dev/curator/agentsetup"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

func TestFlags(t *testing.T) {
	ios, _, _ := cmdutil.Test("")
	f := &cmdutil.Factory{IO: ios}
	var got *Options
	cmd := NewCmd(f, func(o *Options) error { got = o; return nil })
	if err := cmdutil.ParseOnly(cmd, "--json", "--no-commit", "some/dir"); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Dir != "some/dir" || !got.Globals.JSON || !got.Globals.NoCommit || got.Globals.LockTimeout != nil {
		t.Fatalf("options %+v", got)
	}
	got = nil
	if err := cmdutil.ParseOnly(NewCmd(f, func(o *Options) error { got = o; return nil }), "--lock-timeout", "0s"); err != nil {
		t.Fatal(err)
	}
	if got.Dir != "." || got.Globals.LockTimeout == nil || *got.Globals.LockTimeout != 0 {
		t.Fatalf("options %+v", got)
	}
	if err := cmdutil.ParseOnly(NewCmd(f, nil), "a", "b"); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Fatalf("two folders: %v", err)
	}
	if got.Agent != "" || got.DryRun {
		t.Fatalf("defaults: %+v", got)
	}
	for _, agent := range agentsetup.KnownAgents {
		got = nil
		if err := cmdutil.ParseOnly(NewCmd(f, func(o *Options) error { got = o; return nil }), "--agent", agent, "--dry-run", "d"); err != nil {
			t.Fatal(err)
		}
		if got.Agent != agent || !got.DryRun || got.Dir != "d" {
			t.Fatalf("--agent %s --dry-run: %+v", agent, got)
		}
	}
	got = nil
	err := cmdutil.ParseOnly(NewCmd(f, func(o *Options) error { got = o; return nil }), "--agent", "vim")
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || got != nil || !strings.Contains(err.Error(), "claude, agents-md") {
		t.Fatalf("unknown agent: %v, ran %v", err, got != nil)
	}
}
