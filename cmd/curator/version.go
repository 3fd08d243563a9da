package main

import (
	"fmt"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
)

// buildInfo is what the binary knows of how it was built: the module's
// version and the commit it was built from.
type buildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"commit_time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

// version reads the binary's build information.
func version() buildInfo {
	v := buildInfo{Version: "(devel)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Go = bi.GoVersion
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String is the version line: "v1.2.0 (commit 1a2b3c4d5e6f, 2026-11-30T10:00:00Z)".
func (v buildInfo) String() string {
	s := v.Version
	if v.Commit != "" {
		c := v.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		if v.Modified {
			c += ", modified"
		}
		if v.Time != "" {
			c += ", " + v.Time
		}
		s += " (commit " + c + ")"
	}
	return s
}

func versionCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print curator's version and the commit it was built from (also: curator --version)",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cmdutil.Usagef("version takes no arguments")
			}
			env := f.Env(c)
			v := version()
			if env.Globals.JSON {
				return env.PrintJSON(v)
			}
			fmt.Fprintf(env.IO.Out, "curator %s\n", v)
			return nil
		},
	}
}
