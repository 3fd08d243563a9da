package cmdutil

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
)

// Factory is what the commands are built from: the streams, the command
// line as typed (for commit trailers) and options that tests and
// benchmarks give every save.
type Factory struct {
	IO *IOStreams
	// CommandLine is the command as the user typed it, quoted where needed.
	CommandLine string
	// SaveOptions are passed to every Tx.Save (step hooks for crash tests
	// and timing).
	SaveOptions []mdstore.SaveOption
}

// Env is one command invocation's view: the streams, its global flags and
// the factory's save options. Every command's options struct embeds it.
type Env struct {
	IO      *IOStreams
	Globals Globals
	factory *Factory
}

// Env reads the global flags of c.
func (f *Factory) Env(c *cli.Context) Env {
	return Env{IO: f.IO, Globals: GlobalsOf(c), factory: f}
}

// OpenStore opens the store named by --store or found from the working directory.
func (e Env) OpenStore() (*mdstore.Store, error) {
	dir := e.Globals.Store
	if dir == "" {
		found, err := mdstore.Find(".")
		if err != nil {
			return nil, err
		}
		dir = found
	}
	return mdstore.Open(dir)
}

// Begin takes the store's lock (waiting --lock-timeout or the configured
// lock_timeout) and finishes any run that crashed; Close the Tx when done.
func (e Env) Begin(s *mdstore.Store) (*mdstore.Tx, error) {
	return s.Begin(e.TxOptions())
}

// OpenTx opens the store and begins a transaction on it.
func (e Env) OpenTx() (*mdstore.Tx, error) {
	s, err := e.OpenStore()
	if err != nil {
		return nil, err
	}
	return e.Begin(s)
}

// EnvWith is an invocation with the given global flags, for commands run
// without a command line (the MCP server's tools).
func (f *Factory) EnvWith(g Globals) Env {
	return Env{IO: f.IO, Globals: g, factory: f}
}

// TxOptions are the store transaction's options for this invocation: the
// lock wait, --no-commit and the command line recorded in its commits.
func (e Env) TxOptions() mdstore.TxOptions {
	opt := mdstore.TxOptions{LockTimeout: e.Globals.LockTimeout, NoCommit: e.Globals.NoCommit}
	if e.factory != nil {
		opt.Command = e.factory.CommandLine
	}
	return opt
}

// SaveOptions are the options this invocation's saves take (the crash
// tests' hooks).
func (e Env) SaveOptions() []mdstore.SaveOption {
	if e.factory == nil {
		return nil
	}
	return e.factory.SaveOptions
}

// Saving is how a playbook use-case holds the store for this invocation:
// its transaction's and save's options, and the agent asking (--agent or
// CURATOR_AGENT; the MCP server fills in its client's name).
func (e Env) Saving() playbook.Saving {
	return playbook.Saving{Tx: e.TxOptions(), Save: e.SaveOptions(), Agent: e.Globals.Agent}
}

// UserHome is the user's home folder ("" when it is unknown), which "~"
// in a pipeline's paths stands for.
func UserHome() string {
	d, _ := os.UserHomeDir()
	return d
}
