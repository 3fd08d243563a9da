package contextcmd

import (
	"reflect"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// parse builds a command with a runF that keeps its options, and parses args.
func parse[T any](t *testing.T, build func(*cmdutil.Factory, func(*T) error) *cli.Command, args ...string) (*T, error) {
	t.Helper()
	ios, _, _ := cmdutil.Test("")
	var got *T
	err := cmdutil.ParseOnly(build(&cmdutil.Factory{IO: ios}, func(o *T) error { got = o; return nil }), args...)
	return got, err
}

func wantUsage(t *testing.T, err error, what string) {
	t.Helper()
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("%s: got %v, want a usage error", what, err)
	}
}

func TestReflectFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		file string
	}{{nil, ""}, {[]string{"-"}, "-"}, {[]string{"r.md"}, "r.md"}} {
		o, err := parse(t, NewCmdReflect, tc.args...)
		if err != nil || o.File != tc.file {
			t.Errorf("%v: %+v %v", tc.args, o, err)
		}
	}
	o, err := parse(t, NewCmdReflect, "--json", "--no-commit", "r.md")
	if err != nil || !o.Globals.JSON || !o.Globals.NoCommit {
		t.Errorf("globals: %+v %v", o, err)
	}
	_, err = parse(t, NewCmdReflect, "a.md", "b.md")
	wantUsage(t, err, "two files")
}

func TestCurateFlags(t *testing.T) {
	o, err := parse(t, NewCmdCurate)
	if err != nil {
		t.Fatal(err)
	}
	want := playbook.Settings{Threshold: playbook.DefaultThreshold, MinConfidence: playbook.DefaultMinConf}
	if !reflect.DeepEqual(o.Settings, want) || o.ThresholdSet || o.MinConfidenceSet || o.DryRun || o.Output != "" {
		t.Errorf("defaults: %+v", o)
	}
	o, err = parse(t, NewCmdCurate, "--reflection-id", "r1", "--auto-merge", "--similarity-threshold", "0.9",
		"--require-validation", "--dry-run", "--category", "Anti Pattern", "--min-confidence", "0.2", "--output", "rep.md", "--maintenance")
	if err != nil {
		t.Fatal(err)
	}
	want = playbook.Settings{Threshold: 0.9, MinConfidence: 0.2, AutoMerge: true, RequireValidation: true,
		ReflectionID: "r1", Maintenance: true, Category: playbook.NormCategory("Anti Pattern")}
	if !reflect.DeepEqual(o.Settings, want) || !o.ThresholdSet || !o.MinConfidenceSet || !o.DryRun || o.Output != "rep.md" {
		t.Errorf("every flag: %+v", o)
	}
	for _, args := range [][]string{
		{"extra"}, {"--similarity-threshold", "1.5"}, {"--similarity-threshold", "0.5"},
		{"--min-confidence", "-1"}, {"--similarity-threshold", "x"}, {"--no-such-flag"},
	} {
		_, err := parse(t, NewCmdCurate, args...)
		wantUsage(t, err, args[0])
	}
}

func TestApplyFlags(t *testing.T) {
	o, err := parse(t, NewCmdApply, "doc.json")
	if err != nil || o.File != "doc.json" {
		t.Errorf("%+v %v", o, err)
	}
	o, err = parse(t, NewCmdApply, "-")
	if err != nil || o.File != "-" {
		t.Errorf("stdin: %+v %v", o, err)
	}
	_, err = parse(t, NewCmdApply)
	wantUsage(t, err, "no file")
	_, err = parse(t, NewCmdApply, "a", "b")
	wantUsage(t, err, "two files")
}

func TestPromptFlags(t *testing.T) {
	o, err := parse(t, NewCmdPrompt)
	if err != nil || o.ReflectionID != "" || o.Settings.Threshold != playbook.DefaultThreshold || o.Settings.MinConfidence != playbook.DefaultMinConf {
		t.Errorf("defaults: %+v %v", o, err)
	}
	o, err = parse(t, NewCmdPrompt, "--reflection-id", "r2", "--similarity-threshold", "0.7", "--min-confidence", "0.1")
	if err != nil || o.ReflectionID != "r2" || o.Settings.Threshold != 0.7 || o.Settings.MinConfidence != 0.1 {
		t.Errorf("flags: %+v %v", o, err)
	}
	_, err = parse(t, NewCmdPrompt, "--min-confidence", "high")
	wantUsage(t, err, "bad number")
}

func TestReviewFlags(t *testing.T) {
	o, err := parse(t, NewCmdReview, "approve", "STRAT-001")
	if err != nil || !o.Approve || o.ID != "STRAT-001" {
		t.Errorf("approve: %+v %v", o, err)
	}
	o, err = parse(t, NewCmdReview, "reject", "STRAT-002")
	if err != nil || o.Approve || o.ID != "STRAT-002" {
		t.Errorf("reject: %+v %v", o, err)
	}
	for _, args := range [][]string{nil, {"list"}} {
		o, err = parse(t, NewCmdReview, args...)
		if err != nil || !o.List {
			t.Errorf("%v: %+v %v", args, o, err)
		}
	}
	for _, args := range [][]string{{"approve", "--all"}, {"--all", "approve"}} {
		o, err = parse(t, NewCmdReview, args...)
		if err != nil || !o.All || !o.Approve || o.ID != "" {
			t.Errorf("%v: %+v %v", args, o, err)
		}
	}
	for _, args := range [][]string{{"approve"}, {"accept", "X"}, {"approve", "X", "Y"}, {"approve", "--all", "X"}, {"list", "X"}, {"--all"}} {
		_, err := parse(t, NewCmdReview, args...)
		wantUsage(t, err, "review args")
	}
}

func TestQueryFlags(t *testing.T) {
	o, err := parse(t, NewCmdQuery)
	if err != nil || !reflect.DeepEqual(o.Query, playbook.QueryRequest{Limit: 20}) {
		t.Errorf("defaults: %+v %v", o, err)
	}
	o, err = parse(t, NewCmdQuery, "--category", "strategy", "--tags", "a, b,", "--text", "paging", "--limit", "5")
	want := playbook.QueryRequest{Category: "strategy", Tags: []string{"a", "b"}, Text: "paging", Limit: 5}
	if err != nil || !reflect.DeepEqual(o.Query, want) {
		t.Errorf("flags: %+v %v", o, err)
	}
	_, err = parse(t, NewCmdQuery, "--limit", "many")
	wantUsage(t, err, "bad limit")
	_, err = parse(t, NewCmdQuery, "--limit", "-1")
	wantUsage(t, err, "negative limit")
}

func TestStatsFlags(t *testing.T) {
	o, err := parse(t, NewCmdStats, "--json")
	if err != nil || !o.Globals.JSON {
		t.Errorf("%+v %v", o, err)
	}
	_, err = parse(t, NewCmdStats, "--top", "3")
	wantUsage(t, err, "unknown flag")
}

func TestInjectFlags(t *testing.T) {
	o, err := parse(t, NewCmdInject)
	if err != nil || o.Top != 20 || o.File != "CLAUDE.md" || o.Category != "" {
		t.Errorf("defaults: %+v %v", o, err)
	}
	o, err = parse(t, NewCmdInject, "--category", "strategy", "--top", "3", "--file", "AGENTS.md")
	if err != nil || o.Top != 3 || o.File != "AGENTS.md" || o.Category != "strategy" {
		t.Errorf("flags: %+v %v", o, err)
	}
	_, err = parse(t, NewCmdInject, "--top", "0")
	wantUsage(t, err, "--top 0")
}

func TestImportFlags(t *testing.T) {
	o, err := parse(t, NewCmdImport, "pb.txt")
	if err != nil || o.File != "pb.txt" || o.Format != "ace" {
		t.Errorf("defaults: %+v %v", o, err)
	}
	o, err = parse(t, NewCmdImport, "--format", "kayba", "-")
	if err != nil || o.File != "-" || o.Format != "kayba" {
		t.Errorf("kayba: %+v %v", o, err)
	}
	_, err = parse(t, NewCmdImport)
	wantUsage(t, err, "no file")
	_, err = parse(t, NewCmdImport, "--format", "csv", "pb.txt")
	wantUsage(t, err, "bad format")
}

func TestExportFlags(t *testing.T) {
	o, err := parse(t, NewCmdExport)
	if err != nil || o.Format != "ace" {
		t.Errorf("defaults: %+v %v", o, err)
	}
	_, err = parse(t, NewCmdExport, "--format", "kayba")
	wantUsage(t, err, "bad format")
}
