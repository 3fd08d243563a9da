package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/internal/gitcommit"
	"github.com/curator-dev/curator/mdstore"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		// CURATOR_CRASH_AT=journal|applied|committed makes the test binary
		// die right after that step of a save, as a crash would.
		// CURATOR_KILL_AT_LOCK=N kills it (SIGKILL) the instant the N-th
		// git lock file it creates exists.
		"curator": func() {
			killAtLock(os.Getenv("CURATOR_KILL_AT_LOCK"))
			os.Exit(runWith(os.Args, cmdutil.System(), crashAt(os.Getenv("CURATOR_CRASH_AT")), workload.apply))
		},
	})
}

// TestScripts runs the end-to-end scripts in testdata/script/*.txtar.
// Each script runs in a fresh folder; `curator` is this binary.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("GIT_AUTHOR_NAME", "test")
			env.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "test")
			env.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
			env.Setenv("NO_COLOR", "1")
			// a right-to-left override, for scripts about ids that read as another
			env.Setenv("BIDI", "\u202e")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// exitcode N cmd args... runs a command and checks its exit status.
			"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 2 {
					ts.Fatalf("usage: exitcode N command [args...]")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("%v", err)
					}
					got = ee.ExitCode()
				}
				if (got == want) == neg {
					ts.Fatalf("exit status %d, want %d", got, want)
				}
			},
		},
		Condition: func(cond string) (bool, error) {
			if cond == "git" {
				_, err := exec.LookPath("git")
				return err == nil, nil
			}
			return false, nil
		},
	})
}

// killAtLock makes the process kill itself the instant the n-th git lock
// file it creates exists, as a kill from outside at that moment would.
func killAtLock(n string) {
	want, err := strconv.Atoi(n)
	if err != nil || want < 1 {
		return
	}
	taken := 0
	gitcommit.SetLockHook(func(string) {
		if taken++; taken == want {
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Kill()
			}
			time.Sleep(time.Minute) // until the kill arrives
		}
	})
}

// crashAt is a save option that ends the process after the named step.
func crashAt(step string) []mdstore.SaveOption {
	if step == "" {
		return nil
	}
	return []mdstore.SaveOption{mdstore.AfterStep(func(s string) {
		if s == step {
			fmt.Fprintf(os.Stderr, "curator: simulated crash after %s\n", s)
			os.Exit(99)
		}
	})}
}
