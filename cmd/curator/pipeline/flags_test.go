package pipelinecmd

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// parse runs a command's flag parsing and returns the options it built, or
// the error (with its exit status) when parsing failed.
func parse[T any](t *testing.T, build func(*cmdutil.Factory, func(*T) error) *cli.Command, args ...string) (*T, int) {
	t.Helper()
	ios, _, _ := cmdutil.Test("")
	var got *T
	err := cmdutil.ParseOnly(build(&cmdutil.Factory{IO: ios}, func(o *T) error { got = o; return nil }), args...)
	if err != nil {
		return nil, cmdutil.ExitCode(err)
	}
	if got == nil {
		t.Fatalf("%v: the run function was not called", args)
	}
	return got, 0
}

// noSDDHome makes sure CURATOR_SDD_HOME is unset during the test.
func noSDDHome(t *testing.T) {
	t.Setenv("CURATOR_SDD_HOME", "")
	os.Unsetenv("CURATOR_SDD_HOME")
}

func abs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// bare strips the Env, which holds the streams, so options compare as values.
func bare(o HomeOptions) HomeOptions {
	o.Env = cmdutil.Env{Globals: o.Globals}
	return o
}

func TestTransitionFlags(t *testing.T) {
	noSDDHome(t)
	req := []string{"--project", "shop", "--pipeline", "sdd", "--from", "spec-writer", "--to", "implementer"}
	for _, tc := range []struct {
		name string
		args []string
		want TransitionOptions
		exit int
	}{
		{"defaults", req, TransitionOptions{HomeOptions: HomeOptions{Project: "shop"}, Pipeline: "sdd", From: "spec-writer", To: "implementer"}, 0},
		{"every flag", append(req, "--home", "sdd-home", "--project-path", "shop", "--step", "2", "--json"),
			TransitionOptions{HomeOptions: HomeOptions{Env: cmdutil.Env{Globals: cmdutil.Globals{JSON: true}}, Project: "shop", Home: "sdd-home"},
				Pipeline: "sdd", From: "spec-writer", To: "implementer", Step: 2, ProjectPath: abs(t, "shop")}, 0},
		// without --project, the home's one pipeline is used (found when it runs)
		{"no project", req[2:], TransitionOptions{Pipeline: "sdd", From: "spec-writer", To: "implementer"}, 0},
		{"no pipeline", append(append([]string{}, req[:2]...), req[4:]...), TransitionOptions{}, cmdutil.ExitUsage},
		{"no from", append(append([]string{}, req[:4]...), req[6:]...), TransitionOptions{}, cmdutil.ExitUsage},
		{"no to", req[:6], TransitionOptions{}, cmdutil.ExitUsage},
		{"step not a number", append(req, "--step", "two"), TransitionOptions{}, cmdutil.ExitUsage},
		{"unknown flag", append(req, "--phase", "x"), TransitionOptions{}, cmdutil.ExitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, exit := parse(t, NewCmdTransition, tc.args...)
			if exit != tc.exit {
				t.Fatalf("exit %d, want %d", exit, tc.exit)
			}
			if exit != 0 {
				return
			}
			got.HomeOptions = bare(got.HomeOptions)
			if !reflect.DeepEqual(*got, tc.want) {
				t.Fatalf("options\n got %+v\nwant %+v", *got, tc.want)
			}
		})
	}
}

func TestHomeFromEnv(t *testing.T) {
	t.Setenv("CURATOR_SDD_HOME", "/tmp/sdd")
	got, exit := parse(t, NewCmdStatus, "--project", "shop")
	if exit != 0 || got.Home != "/tmp/sdd" {
		t.Fatalf("exit %d, options %+v", exit, got)
	}
	got, _ = parse(t, NewCmdStatus, "--project", "shop", "--home", "other")
	if got.Home != "other" {
		t.Fatalf("--home does not win over CURATOR_SDD_HOME: %+v", got)
	}
}

// projectModes are the commands that take --project-path and --pipeline.
func TestProjectPathModes(t *testing.T) {
	noSDDHome(t)
	type pp struct{ ProjectPath, Pipeline, Phase string }
	cmds := map[string]func(args ...string) (HomeOptions, pp, int){
		"resume": func(args ...string) (HomeOptions, pp, int) {
			o, exit := parse(t, NewCmdResume, args...)
			if o == nil {
				return HomeOptions{}, pp{}, exit
			}
			return o.HomeOptions, pp{o.ProjectPath, o.Pipeline, ""}, exit
		},
		"reconstruct": func(args ...string) (HomeOptions, pp, int) {
			o, exit := parse(t, NewCmdReconstruct, args...)
			if o == nil {
				return HomeOptions{}, pp{}, exit
			}
			return o.HomeOptions, pp{o.ProjectPath, o.Pipeline, ""}, exit
		},
		"validate": func(args ...string) (HomeOptions, pp, int) {
			o, exit := parse(t, NewCmdValidate, args...)
			if o == nil {
				return HomeOptions{}, pp{}, exit
			}
			return o.HomeOptions, pp{o.ProjectPath, o.Pipeline, o.Phase}, exit
		},
	}
	for name, run := range cmds {
		t.Run(name, func(t *testing.T) {
			h, p, exit := run("--project", "shop")
			if exit != 0 || h.Project != "shop" || h.Home != "" || p != (pp{}) {
				t.Fatalf("defaults: exit %d, %+v %+v", exit, h, p)
			}
			h, p, exit = run("--project", "shop", "--home", "h", "--project-path", "shop", "--pipeline", "debug", "--quiet")
			want := pp{ProjectPath: abs(t, "shop"), Pipeline: "debug"}
			if exit != 0 || h.Home != "h" || !h.Globals.Quiet || p != want {
				t.Fatalf("every flag: exit %d, %+v %+v", exit, h, p)
			}
			if h, _, exit := run("--pipeline", "sdd"); exit != 0 || h.Project != "" {
				t.Fatalf("no --project (the home's one pipeline, found when it runs): exit %d, %+v", exit, h)
			}
			if _, _, exit := run("--project", "shop", "--step", "1"); exit != cmdutil.ExitUsage {
				t.Fatalf("unknown flag: exit %d", exit)
			}
		})
	}
	o, exit := parse(t, NewCmdValidate, "--project", "shop", "--phase", "implementer")
	if exit != 0 || o.Phase != "implementer" {
		t.Fatalf("validate --phase: exit %d, %+v", exit, o)
	}
	if _, exit := parse(t, NewCmdResume, "--project", "shop", "--phase", "x"); exit != cmdutil.ExitUsage {
		t.Fatalf("resume --phase: exit %d", exit)
	}
}

func TestStatusRefreshFlags(t *testing.T) {
	noSDDHome(t)
	s, exit := parse(t, NewCmdStatus, "--project", "shop", "--home", "h", "--lock-timeout", "0s")
	if exit != 0 || s.Project != "shop" || s.Home != "h" || s.Globals.LockTimeout == nil {
		t.Fatalf("status: exit %d, %+v", exit, s)
	}
	r, exit := parse(t, NewCmdRefresh, "--project", "shop")
	if exit != 0 || r.Project != "shop" || r.Home != "" {
		t.Fatalf("refresh: exit %d, %+v", exit, r)
	}
	if s, exit := parse(t, NewCmdStatus); exit != 0 || s.Project != "" {
		t.Fatalf("status without --project (the home's one pipeline, found when it runs): exit %d, %+v", exit, s)
	}
	for _, args := range [][]string{{"--project", "shop", "--project-path", "x"}, {"--project", "shop", "--pipeline", "sdd"}} {
		if _, exit := parse(t, NewCmdStatus, args...); exit != cmdutil.ExitUsage {
			t.Fatalf("status %v: exit %d", args, exit)
		}
		if _, exit := parse(t, NewCmdRefresh, args...); exit != cmdutil.ExitUsage {
			t.Fatalf("refresh %v: exit %d", args, exit)
		}
	}
}

func TestRestartFlags(t *testing.T) {
	noSDDHome(t)
	o, exit := parse(t, NewCmdRestart, "--project", "shop", "--phase", "implementer", "--no-commit")
	if exit != 0 || o.Project != "shop" || o.Phase != "implementer" || !o.Globals.NoCommit {
		t.Fatalf("exit %d, %+v", exit, o)
	}
	for _, args := range [][]string{{"--project", "shop"}} {
		if _, exit := parse(t, NewCmdRestart, args...); exit != cmdutil.ExitUsage {
			t.Fatalf("%v: exit %d", args, exit)
		}
	}
	if o, exit := parse(t, NewCmdRestart, "--phase", "implementer"); exit != 0 || o.Project != "" {
		t.Fatalf("without --project (the home's one pipeline, found when it runs): exit %d, %+v", exit, o)
	}
}

func TestDashboardFlags(t *testing.T) {
	noSDDHome(t)
	o, exit := parse(t, NewCmdDashboard, "--project", "shop")
	if exit != 0 || o.Project != "shop" || o.Open || o.Serve != "" {
		t.Fatalf("defaults: exit %d, %+v", exit, o)
	}
	o, exit = parse(t, NewCmdDashboard, "--project", "shop", "--open", "--serve", "127.0.0.1:0", "--home", "h")
	if exit != 0 || !o.Open || o.Serve != "127.0.0.1:0" || o.Home != "h" || o.ctx == nil || o.AllowRemote {
		t.Fatalf("every flag: exit %d, %+v", exit, o)
	}
	for _, addr := range []string{":0", "0.0.0.0:7777", "192.168.1.5:80"} {
		o, exit = parse(t, NewCmdDashboard, "--project", "shop", "--serve", addr, "--allow-remote")
		if exit != 0 || o.Serve != addr || !o.AllowRemote {
			t.Fatalf("--serve %s --allow-remote: exit %d, %+v", addr, exit, o)
		}
	}
	if o, exit := parse(t, NewCmdDashboard); exit != 0 || o.Project != "" {
		t.Fatalf("without --project (the home's one pipeline, found when it runs): exit %d, %+v", exit, o)
	}
	for _, args := range [][]string{{"--project", "shop", "--serve"}, {"--project", "shop", "--phase", "x"},
		{"--project", "shop", "--serve", ":0"}, {"--project", "shop", "--serve", "0.0.0.0:7777"}, {"--project", "shop", "--serve", "8080"},
		{"--project", "shop", "--allow-remote"}} {
		if _, exit := parse(t, NewCmdDashboard, args...); exit != cmdutil.ExitUsage {
			t.Fatalf("%v: exit %d", args, exit)
		}
	}
}

func TestGroup(t *testing.T) {
	ios, _, _ := cmdutil.Test("")
	var names []string
	for _, c := range NewCmd(&cmdutil.Factory{IO: ios}).Subcommands {
		names = append(names, c.Name)
	}
	want := []string{"transition", "resume", "refresh", "restart", "hold", "continue", "skip", "status", "validate", "reconstruct", "dashboard"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("subcommands %v, want %v", names, want)
	}
}

func TestHoldFlags(t *testing.T) {
	noSDDHome(t)
	o, exit := parse(t, NewCmdHold, "--project", "shop", "--reason", "waiting")
	if exit != 0 || o.Project != "shop" || o.Reason != "waiting" {
		t.Fatalf("hold: exit %d, %+v", exit, o)
	}
	if _, exit := parse(t, NewCmdContinue, "--project", "shop"); exit != 0 {
		t.Fatalf("continue: exit %d", exit)
	}
	o, exit = parse(t, NewCmdSkip, "--project", "shop", "--phase", "implementer", "--reason", "by hand")
	if exit != 0 || o.Phase != "implementer" || o.Reason != "by hand" {
		t.Fatalf("skip: exit %d, %+v", exit, o)
	}
	if _, exit := parse(t, NewCmdSkip, "--project", "shop"); exit != cmdutil.ExitUsage {
		t.Fatalf("skip without --phase: exit %d", exit)
	}
	if _, exit := parse(t, NewCmdContinue, "--project", "shop", "--reason", "x"); exit != cmdutil.ExitUsage {
		t.Fatalf("continue --reason: exit %d", exit)
	}
}

func TestProjectPathTilde(t *testing.T) {
	noSDDHome(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	o, exit := parse(t, NewCmdTransition, "--project", "shop", "--pipeline", "sdd", "--from", "a", "--to", "b", "--project-path", "~/src/shop")
	if exit != 0 || o.ProjectPath != filepath.Join(home, "src", "shop") {
		t.Fatalf("--project-path ~/src/shop: exit %d, %q", exit, o.ProjectPath)
	}
}
