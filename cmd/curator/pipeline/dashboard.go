package pipelinecmd

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"runtime"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/dashboard"
	"github.com/curator-dev/curator/pipeline"
)

// DashboardOptions are what `pipeline dashboard` was asked to do.
type DashboardOptions struct {
	HomeOptions
	// Open shows the written dashboard in a browser.
	Open bool
	// Serve is the address to serve the live dashboard on ("" writes the
	// page instead).
	Serve string
	// AllowRemote lets Serve be an address other machines can reach.
	AllowRemote bool
	// ctx ends the server.
	ctx context.Context
}

// NewCmdDashboard builds `curator pipeline dashboard`; runF replaces the run in tests.
func NewCmdDashboard(f *cmdutil.Factory, runF func(*DashboardOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "dashboard",
		Usage: "write the HTML dashboard; --open shows it, --serve ADDR serves it live",
		Flags: []cli.Flag{projectFlag(), homeFlag(),
			&cli.BoolFlag{Name: "open", Usage: "open the dashboard in a browser"},
			&cli.StringFlag{Name: "serve", Usage: "serve the live dashboard on ADDR (e.g. 127.0.0.1:8080) until interrupted"},
			&cli.BoolFlag{Name: "allow-remote", Usage: "with --serve, accept an address other machines can reach"},
		},
		Action: func(c *cli.Context) error {
			opts := &DashboardOptions{HomeOptions: homeOptions(f, c), Open: c.Bool("open"), Serve: c.String("serve"),
				AllowRemote: c.Bool("allow-remote"), ctx: c.Context}
			if opts.AllowRemote && opts.Serve == "" {
				return cmdutil.Usagef("--allow-remote goes with --serve ADDR")
			}
			if opts.Serve != "" {
				if err := dashboard.CheckServeAddr(opts.Serve, opts.AllowRemote); err != nil {
					return cmdutil.Usage(err)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return Dashboard(opts)
		},
	}
}

// Dashboard writes the project's dashboard page (one run when the home is
// in the store), or serves it live with --serve.
func Dashboard(opts *DashboardOptions) error {
	h, err := opts.open(opts.Serve == "")
	if err != nil {
		return err
	}
	defer h.Close()
	ctx := context.Background()
	if opts.Serve != "" {
		project, err := h.Env.ProjectOf(opts.Project)
		if err != nil {
			return err
		}
		live := dashboard.NewLive(func(string) ([]byte, error) { return pipeline.DashboardPage(ctx, h.Env, project) },
			func() []string { return []string{project} })
		return serve(opts, project, live)
	}
	r, err := pipeline.Dashboard(ctx, h.Env, h.Saver(), pipeline.ProjectRequest{Project: opts.Project})
	if err != nil {
		return err
	}
	if opts.Open {
		opener := "xdg-open"
		if runtime.GOOS == "darwin" {
			opener = "open"
		}
		if err := exec.Command(opener, r.Dashboard).Start(); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "curator: could not open a browser (%v); the dashboard is %s\n", err, r.Dashboard)
		}
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(r)
	}
	opts.Say("%s\n", r.Dashboard)
	return nil
}

// serve serves the live dashboard, its page fresh at each request, until
// the command's context ends. Nothing watches the pipeline's files here
// (curator watch does): a page shows the state as it is when loaded.
func serve(opts *DashboardOptions, project string, live *dashboard.Live) error {
	ln, err := net.Listen("tcp", opts.Serve)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Serving the %s dashboard on http://%s/ (Ctrl-C stops)\n", project, ln.Addr())
	parent := opts.ctx
	if parent == nil {
		parent = context.Background()
	}
	return dashboard.Serve(parent, ln, live)
}
