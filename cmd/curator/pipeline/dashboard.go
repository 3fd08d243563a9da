package pipelinecmd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"time"

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
	// ctx ends the server.
	ctx context.Context
}

// DashboardReport is the --json output of `pipeline dashboard`.
type DashboardReport struct {
	Commit    string `json:"commit"`
	Dashboard string `json:"dashboard"`
}

// NewCmdDashboard builds `curator pipeline dashboard`; runF replaces the run in tests.
func NewCmdDashboard(f *cmdutil.Factory, runF func(*DashboardOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "dashboard",
		Usage: "write the HTML dashboard; --open shows it, --serve ADDR serves it live",
		Flags: []cli.Flag{projectFlag(), homeFlag(),
			&cli.BoolFlag{Name: "open", Usage: "open the dashboard in a browser"},
			&cli.StringFlag{Name: "serve", Usage: "serve the live dashboard on ADDR (e.g. 127.0.0.1:8080) until interrupted"},
		},
		Action: func(c *cli.Context) error {
			opts := &DashboardOptions{HomeOptions: homeOptions(f, c), Open: c.Bool("open"), Serve: c.String("serve"), ctx: c.Context}
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
		return pipelineErr(err)
	}
	defer h.close()
	req := pipeline.ProjectRequest{Project: opts.Project}
	if opts.Serve != "" {
		return serve(opts, func() ([]byte, error) { return h.env.DashboardPage(req) })
	}
	r, err := h.env.DashboardReport(req)
	if err != nil {
		return pipelineErr(err)
	}
	commit, err := h.save(opts.Env, r)
	if err != nil {
		return err
	}
	abs, _ := h.env.Home.Path(pipeline.DashboardName(opts.Project))
	if opts.Open {
		opener := "xdg-open"
		if runtime.GOOS == "darwin" {
			opener = "open"
		}
		if err := exec.Command(opener, abs).Start(); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "curator: could not open a browser (%v); the dashboard is %s\n", err, abs)
		}
	}
	if opts.Globals.JSON {
		return opts.PrintJSON(DashboardReport{Commit: commit, Dashboard: abs})
	}
	opts.Say("%s\n", abs)
	return nil
}

// serve serves the page render makes, fresh at each request, until the
// command's context ends.
func serve(opts *DashboardOptions, render func() ([]byte, error)) error {
	ln, err := net.Listen("tcp", opts.Serve)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: dashboard.Handler(render), ReadHeaderTimeout: 5 * time.Second}
	fmt.Fprintf(opts.IO.ErrOut, "Serving the %s dashboard on http://%s/ (Ctrl-C stops)\n", opts.Project, ln.Addr())
	parent := opts.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := context.WithCancel(parent)
	defer stop()
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
