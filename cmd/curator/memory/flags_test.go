package memorycmd

import (
	"reflect"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/mdstore"
)

func testFactory() *cmdutil.Factory {
	ios, _, _ := cmdutil.Test("")
	return &cmdutil.Factory{IO: ios}
}

// parse runs the flag parsing of the command build makes and returns the
// options it passed to its run function (nil when parsing failed).
func parse[O any](t *testing.T, build func(*cmdutil.Factory, func(*O) error) *cli.Command, args ...string) (*O, error) {
	t.Helper()
	var got *O
	err := cmdutil.ParseOnly(build(testFactory(), func(o *O) error { got = o; return nil }), args...)
	if err == nil && got == nil {
		t.Fatalf("%v: the run function was not called", args)
	}
	return got, err
}

func wantUsage(t *testing.T, args []string, err error) {
	t.Helper()
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("%q: got %v (exit %d), want a usage error", args, err, cmdutil.ExitCode(err))
	}
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestAddFlags(t *testing.T) {
	base := []string{"--type", "fact", "--brief", "b"}
	for _, tc := range []struct {
		args []string
		want mdstore.NewMemory
		in   bool
	}{
		{args: nil, want: mdstore.NewMemory{Type: "fact", Brief: "b", Confidence: 3}},
		{args: []string{"--author", "a", "--tags", "x, y,", "--confidence", "5", "--scenario", "sc", "--id", "m-1", "hello", "world"},
			want: mdstore.NewMemory{ID: "m-1", Type: "fact", Brief: "b", Author: "a", Tags: []string{"x", "y"}, Confidence: 5, Scenario: "sc", Body: "hello world"}},
		{args: []string{"--proximity", "0.5", "--entity-priority", "1"},
			want: mdstore.NewMemory{Type: "fact", Brief: "b", Confidence: 3, Factors: map[string]float64{"proximity": 0.5, "entity_priority": 1}}},
		{args: []string{"--surprisal", "0", "--unambiguity", "0.25"},
			want: mdstore.NewMemory{Type: "fact", Brief: "b", Confidence: 3, Factors: map[string]float64{"surprisal": 0, "unambiguity": 0.25}}},
		{args: []string{"--ingestion-time", "2026-11-29T09:30:00+01:00"},
			want: mdstore.NewMemory{Type: "fact", Brief: "b", Confidence: 3, IngestionTime: at("2026-11-29T08:30:00Z")}},
		{args: []string{"-"}, want: mdstore.NewMemory{Type: "fact", Brief: "b", Confidence: 3}, in: true},
	} {
		args := append(append([]string{}, base...), tc.args...)
		o, err := parse(t, NewCmdAdd, args...)
		if err != nil {
			t.Errorf("%q: %v", args, err)
			continue
		}
		if !reflect.DeepEqual(o.Record, tc.want) || o.BodyFromStdin != tc.in {
			t.Errorf("%q:\n got %+v (stdin %v)\nwant %+v (stdin %v)", args, o.Record, o.BodyFromStdin, tc.want, tc.in)
		}
	}
	for _, args := range [][]string{
		{"--brief", "b"},   // --type is required
		{"--type", "fact"}, // --brief is required
		{"--type", "rumour", "--brief", "b"},
		append(base, "--confidence", "0"),
		append(base, "--confidence", "6"),
		append(base, "--proximity", "1.5"),
		append(base, "--unambiguity", "-0.1"),
		append(base, "--ingestion-time", "yesterday"),
		append(base, "--id", "../x"),
		append(base, "--nope"),
	} {
		_, err := parse(t, NewCmdAdd, args...)
		wantUsage(t, args, err)
	}
}

func TestListFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want mdstore.MemoryQuery
	}{
		{nil, mdstore.MemoryQuery{Limit: 100}},
		{[]string{"--status", "trash", "--type", "lesson", "--limit", "0", "--offset", "7"}, mdstore.MemoryQuery{Status: "trash", Type: "lesson", Offset: 7}},
		{[]string{"--from", "2026-11-29T09:00:00Z", "--to", "2026-11-30"}, mdstore.MemoryQuery{Limit: 100, From: at("2026-11-29T09:00:00Z"), To: at("2026-11-30T00:00:00Z")}},
	} {
		o, err := parse(t, NewCmdList, tc.args...)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !reflect.DeepEqual(o.Query, tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.args, o.Query, tc.want)
		}
	}
	for _, args := range [][]string{
		{"--status", "done"}, {"--type", "rumour"}, {"--limit", "-1"}, {"--offset", "-2"},
		{"--from", "soon"}, {"--to", "later"}, {"--limit", "many"},
	} {
		_, err := parse(t, NewCmdList, args...)
		wantUsage(t, args, err)
	}
}

func TestOneIDFlags(t *testing.T) {
	show := func(args ...string) (string, error) {
		o, err := parse(t, NewCmdShow, args...)
		if o == nil {
			return "", err
		}
		return o.ID, err
	}
	del := func(args ...string) (string, error) {
		o, err := parse(t, NewCmdDelete, args...)
		if o == nil {
			return "", err
		}
		return o.ID, err
	}
	restore := func(args ...string) (string, error) {
		o, err := parse(t, NewCmdRestore, args...)
		if o == nil {
			return "", err
		}
		return o.ID, err
	}
	for name, cmd := range map[string]func(...string) (string, error){"show": show, "delete": del, "restore": restore} {
		id, err := cmd("--json", "m-1") // flags come first here; the app reorders them
		if err != nil || id != "m-1" {
			t.Errorf("%s m-1: %q, %v", name, id, err)
		}
		for _, args := range [][]string{nil, {"a", "b"}} {
			_, err := cmd(args...)
			wantUsage(t, append([]string{name}, args...), err)
		}
	}
}

func TestUpdateFlags(t *testing.T) {
	o, err := parse(t, NewCmdUpdate, "--set", "tags=[go, build]", "--set", "importance_factors.proximity=0.8", "--set", "brief=a=b", "--set", "author=", "m-1")
	if err != nil {
		t.Fatal(err)
	}
	want := []memory.Set{
		{Key: "tags", Value: []any{"go", "build"}},
		{Key: "importance_factors.proximity", Value: 0.8},
		{Key: "brief", Value: "a=b"},
		{Key: "author", Value: nil},
	}
	if o.ID != "m-1" || !reflect.DeepEqual(o.Sets, want) {
		t.Fatalf("got %q %#v", o.ID, o.Sets)
	}
	for _, args := range [][]string{
		{"m-1"},                            // --set is required
		{"--set", "brief=x"},               // no id
		{"--set", "brief=x", "a", "b"},     // two ids
		{"--set", "brief", "m-1"},          // no =
		{"--set", "=x", "m-1"},             // no key
		{"--set", "tags=[unclosed", "m-1"}, // not YAML
		{"--set", "k\xff=v", "m-1"},        // a key that is not UTF-8
		{"--set", "brief=caf\xe9", "m-1"},  // a value that is not UTF-8 (YAML would store !!binary)
	} {
		_, err := parse(t, NewCmdUpdate, args...)
		wantUsage(t, args, err)
	}
}

func TestCurateFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want CurateOptions
	}{
		{nil, CurateOptions{}}, // DedupPrefix 0: config.yaml memory.dedup_prefix
		{[]string{"--from", "2026-11-29T09:00:00Z", "--to", "2026-11-29T10:00:00Z", "--dry-run", "--dedup-prefix", "12"},
			CurateOptions{From: at("2026-11-29T09:00:00Z"), To: at("2026-11-29T10:00:00Z"), DryRun: true, DedupPrefix: 12}},
		{[]string{"--task", "整理范围：a 到 b"}, CurateOptions{Task: "整理范围：a 到 b"}},
	} {
		o, err := parse(t, NewCmdCurate, tc.args...)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !o.From.Equal(tc.want.From) || !o.To.Equal(tc.want.To) || o.Task != tc.want.Task || o.DryRun != tc.want.DryRun || o.DedupPrefix != tc.want.DedupPrefix {
			t.Errorf("%q: got %+v, want %+v", tc.args, *o, tc.want)
		}
	}
	for _, args := range [][]string{
		{"--dedup-prefix", "0"}, {"--from", "x"}, {"--to", "y"},
		{"--task", "t", "--from", "2026-11-29T09:00:00Z"}, {"--task", "t", "--to", "2026-11-29T09:00:00Z"},
	} {
		_, err := parse(t, NewCmdCurate, args...)
		wantUsage(t, args, err)
	}
}

func TestPromoteRuleFlags(t *testing.T) {
	o, err := parse(t, NewCmdPromoteRule, "--scenario", "  flaky CI  ")
	if err != nil || o.Scenario != "flaky CI" || o.Author != "curator" {
		t.Fatalf("%+v %v", o, err)
	}
	o, err = parse(t, NewCmdPromoteRule, "--scenario", "s", "--author", "ana")
	if err != nil || o.Author != "ana" {
		t.Fatalf("%+v %v", o, err)
	}
	for _, args := range [][]string{nil, {"--scenario", "  "}} {
		_, err := parse(t, NewCmdPromoteRule, args...)
		wantUsage(t, args, err)
	}
}

func TestPurgeFlags(t *testing.T) {
	for args, want := range map[string]time.Duration{
		"":                 30 * 24 * time.Hour,
		"--older-than=0s":  0,
		"--older-than=12h": 12 * time.Hour,
		"--older-than=7d":  7 * 24 * time.Hour,
		"--older-than=0d":  0,
	} {
		var argv []string
		if args != "" {
			argv = []string{args}
		}
		o, err := parse(t, NewCmdPurge, argv...)
		if err != nil || o.OlderThan != want {
			t.Errorf("%q: %+v %v", args, o, err)
		}
	}
	for _, arg := range []string{"--older-than=-1d", "--older-than=xd", "--older-than=soon"} {
		_, err := parse(t, NewCmdPurge, arg)
		wantUsage(t, []string{arg}, err)
	}
	// the group reaches its subcommand
	var got *PurgeOptions
	trash := &cli.Command{Name: "trash", Subcommands: []*cli.Command{NewCmdPurge(testFactory(), func(o *PurgeOptions) error { got = o; return nil })}}
	if err := cmdutil.ParseOnly(trash, "purge", "--older-than", "1d", "--json"); err != nil || got == nil || !got.Globals.JSON {
		t.Fatalf("trash purge: %+v %v", got, err)
	}
}
