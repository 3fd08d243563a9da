package similaritycmd

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/mdstore"
)

func TestScore(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := mdstore.Init(dir); err != nil {
		t.Fatal(err)
	}
	ios, out, _ := cmdutil.Test("run the tests\trun the tests\nrun the tests\tbake a cake\n\n")
	opts := &ScoreOptions{Env: cmdutil.Env{IO: ios, Globals: cmdutil.Globals{Store: filepath.Join(dir, ".curator")}}}
	if err := Score(opts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(out.String())
	if len(lines) != 2 {
		t.Fatalf("want one score per pair, got %q", out.String())
	}
	same, _ := strconv.ParseFloat(lines[0], 64)
	other, _ := strconv.ParseFloat(lines[1], 64)
	if same != 1 || other >= same || other < 0 {
		t.Errorf("scores %v %v", same, other)
	}
	ios, _, _ = cmdutil.Test("no tab here\n")
	opts.IO = ios
	if err := Score(opts); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("a line without TAB: %v", err)
	}
}

func TestScoreFlags(t *testing.T) {
	ios, _, _ := cmdutil.Test("")
	var got *ScoreOptions
	cmd := NewCmdScore(&cmdutil.Factory{IO: ios}, func(o *ScoreOptions) error { got = o; return nil })
	if err := cmdutil.ParseOnly(cmd, "--store", "/x/.curator"); err != nil || got.Globals.Store != "/x/.curator" {
		t.Fatalf("%v %+v", err, got)
	}
	if err := cmdutil.ParseOnly(NewCmdScore(&cmdutil.Factory{IO: ios}, nil), "--nope"); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("unknown flag: %v", err)
	}
}
