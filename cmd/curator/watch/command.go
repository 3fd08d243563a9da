package watchcmd

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/dashboard"
	"github.com/curator-dev/curator/watchmode"
)

// Options are what `curator watch` was asked to do.
type Options struct {
	cmdutil.Env
	// Pipelines, Memory and Context choose what is watched (none given:
	// pipelines and memory).
	Pipelines, Memory, Context bool
	// Project limits the pipelines to one project; Home is the pipeline
	// home (--home, CURATOR_SDD_HOME).
	Project, Home string
	// Serve is the address of the live dashboard ("" none); AllowHosts
	// are host names besides its own that it answers (--allow-host).
	Serve      string
	AllowHosts []string
	// Debounce is the quiet time that ends a batch of file events;
	// CurateAfter the quiet time after inbox or reflection changes before a
	// curation runs; Poll, when set, polls instead of using file events.
	Debounce, CurateAfter, Poll time.Duration
	// Curate is the `context curate` run that new reflections start (from
	// --curate-flags).
	Curate *playbook.CurateRequest
	// Ctx ends the watch; the command line ends it on Ctrl-C or SIGTERM.
	Ctx context.Context
}

// NewCmd builds `curator watch`; runF replaces the run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "follow pipeline artifacts, the memory inbox and pending reflections, until interrupted",
		Description: "With none of --pipelines, --memory, --context: pipelines and memory.\n" +
			"Pipelines: a validated artifact that changes is recorded as drift in the pipeline state at once\n" +
			"(and cleared when its validated content is back); the dashboard is rendered again, and pages\n" +
			"open on --serve update themselves. Memory: new inbox files start a memory pass (watermark to\n" +
			"now) after --curate-after of quiet. Context: new pending reflections start `context curate`\n" +
			"with --curate-flags (default: proposals only) after --curate-after of quiet.\n" +
			"Every change watch makes is one commit per settled batch, under the store's lock.\n" +
			"One line per event on stderr (--quiet: errors only); --json prints one JSON object per event.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "pipelines", Usage: "watch pipeline artifacts (drift, dashboard)"},
			&cli.BoolFlag{Name: "memory", Usage: "curate new inbox entries after --curate-after of quiet"},
			&cli.BoolFlag{Name: "context", Usage: "curate new pending reflections after --curate-after of quiet"},
			&cli.StringFlag{Name: "project", Usage: "watch only this pipeline project"},
			&cli.StringFlag{Name: "home", Usage: "folder of the pipeline files (default: the store's pipelines/)", EnvVars: []string{"CURATOR_SDD_HOME"}},
			&cli.StringFlag{Name: "serve", Usage: "serve the live dashboard on ADDR, e.g. 127.0.0.1:7777"},
			&cli.BoolFlag{Name: "allow-remote", Usage: "allow --serve on an address other computers can reach"},
			&cli.StringSliceFlag{Name: "allow-host", Usage: "`NAME` other computers reach the dashboard by (repeatable); requests for any other name are refused with 421"},
			cmdutil.DurationFlag("debounce", 100*time.Millisecond, "quiet time that ends a batch of file events"),
			cmdutil.DurationFlag("curate-after", 30*time.Second, "quiet time before a memory or context curation runs"),
			&cli.StringFlag{Name: "curate-flags", Usage: "`FLAGS` of the context curate run, e.g. \"--auto-merge --similarity-threshold 0.9\" (default: none, merges stay proposals)"},
			cmdutil.DurationFlag("poll", 0, "poll every DURATION instead of using file events (network file systems)"),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cmdutil.Usagef("watch takes no arguments (got %q)", c.Args().First())
			}
			opts := &Options{Env: f.Env(c),
				Pipelines: c.Bool("pipelines"), Memory: c.Bool("memory"), Context: c.Bool("context"),
				Project: c.String("project"), Home: c.String("home"), Serve: c.String("serve"), AllowHosts: c.StringSlice("allow-host"),
				Debounce: cmdutil.Duration(c, "debounce"), CurateAfter: cmdutil.Duration(c, "curate-after"), Poll: cmdutil.Duration(c, "poll")}
			if !opts.Pipelines && !opts.Memory && !opts.Context {
				opts.Pipelines, opts.Memory = true, true
			}
			if opts.Debounce <= 0 {
				return cmdutil.Usagef("--debounce %v: must be more than 0", opts.Debounce)
			}
			if opts.CurateAfter < 0 || opts.Poll < 0 {
				return cmdutil.Usagef("--curate-after and --poll cannot be negative")
			}
			if opts.Project != "" && !opts.Pipelines {
				return cmdutil.Usagef("--project needs --pipelines")
			}
			if opts.Serve != "" {
				if !opts.Pipelines {
					return cmdutil.Usagef("--serve needs --pipelines (it serves the pipeline dashboards)")
				}
				if err := dashboard.CheckServeAddr(opts.Serve, c.Bool("allow-remote")); err != nil {
					return cmdutil.Usage(err)
				}
			}
			if len(opts.AllowHosts) > 0 && opts.Serve == "" {
				return cmdutil.Usagef("--allow-host needs --serve")
			}
			if c.IsSet("curate-flags") && !opts.Context {
				return cmdutil.Usagef("--curate-flags needs --context")
			}
			if opts.Context {
				var err error
				if opts.Curate, err = curateFlags(c.String("curate-flags")); err != nil {
					return err
				}
			}
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			opts.Ctx = ctx
			if runF != nil {
				return runF(opts)
			}
			return Watch(opts)
		},
	}
}

// curateFlags parses --curate-flags as `context curate` would.
func curateFlags(flags string) (*playbook.CurateRequest, error) {
	var got playbook.CurateRequest
	cmd := &cli.Command{Name: "curate", Flags: cmdutil.CurateFlags(), Action: func(c *cli.Context) (err error) {
		got, err = cmdutil.CurateRequestOf(c)
		return err
	}}
	if err := cmdutil.ParseOnly(cmd, strings.Fields(flags)...); err != nil {
		return nil, cmdutil.Usagef("--curate-flags %q: %v", flags, err)
	}
	return &got, nil
}

// Watch runs the watch until opts.Ctx ends, printing its events.
func Watch(opts *Options) error {
	log := &events{out: opts.IO.Out, errOut: opts.IO.ErrOut, json: opts.Globals.JSON, quiet: opts.Globals.Quiet, now: time.Now}
	userHome, _ := os.UserHomeDir()
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return watchmode.Run(ctx, &watchmode.Options{
		Pipelines: opts.Pipelines, Memory: opts.Memory, Context: opts.Context,
		Project: opts.Project, Home: opts.Home, UserHome: userHome, Serve: opts.Serve, AllowHosts: opts.AllowHosts,
		Debounce: opts.Debounce, CurateAfter: opts.CurateAfter, Poll: opts.Poll, Curate: opts.Curate,
		Store: opts.OpenStore, Tx: opts.TxOptions(), Save: opts.SaveOptions(), Agent: opts.Globals.Agent, Emit: log.emit,
	})
}
