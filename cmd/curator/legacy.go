package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/mdstore"
)

// globals are the global flags, read from any command's context.
type globals struct {
	Store       string
	JSON        bool
	Quiet       bool
	NoCommit    bool
	LockTimeout time.Duration
	// LockTimeoutSet tells --lock-timeout 0s (do not wait) from no flag.
	LockTimeoutSet bool
	stdout         io.Writer
	stderr         io.Writer
	stdin          io.Reader
}

func globalsOf(c *cli.Context) globals {
	g := globals{stdout: c.App.Writer, stderr: c.App.ErrWriter, stdin: c.App.Reader}
	for _, l := range c.Lineage() {
		if l.IsSet("store") {
			g.Store = l.String("store")
		}
		if l.Bool("json") {
			g.JSON = true
		}
		if l.Bool("quiet") {
			g.Quiet = true
		}
		if l.Bool("no-commit") {
			g.NoCommit = true
		}
		if l.IsSet("lock-timeout") {
			g.LockTimeout, g.LockTimeoutSet = l.Duration("lock-timeout"), true
		}
	}
	if g.Store == "" {
		g.Store = os.Getenv("CURATOR_STORE")
	}
	return g
}

// openStore opens the store named by --store or found from the working directory.
func (g globals) openStore() (*mdstore.Store, error) {
	dir := g.Store
	if dir == "" {
		found, err := mdstore.Find(".")
		if err != nil {
			return nil, err
		}
		dir = found
	}
	return mdstore.Open(dir)
}

// printJSON writes v as the command's one JSON document.
func (g globals) printJSON(v any) error {
	enc := json.NewEncoder(g.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// say prints a human message unless --quiet or --json.
func (g globals) say(format string, a ...any) {
	if g.Quiet || g.JSON {
		return
	}
	fmt.Fprintf(g.stdout, format, a...)
}
