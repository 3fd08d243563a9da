package initcmd

import (
	"fmt"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/mdstore"
)

// checkDriver makes sure git can run the merge driver registered in the
// repository holding dir. curator's own definition, `curator merge-driver
// …`, is replaced by the path of this curator when `curator` is not on
// PATH; a definition of the user's whose program git cannot find is kept,
// with a warning that says how to fix it.
func checkDriver(opts *Options, dir string) error {
	d, err := cmdutil.ReadMergeDriver(dir)
	if err != nil || d.Command == "" || d.Found {
		return err
	}
	self, err := cmdutil.SelfPath()
	if err != nil {
		return fmt.Errorf("finding this curator's path for the merge driver: %w", err)
	}
	if d.Command == mdstore.MergeDriverCommand {
		if err := cmdutil.SetMergeDriver(dir, cmdutil.DriverCommand(self)); err != nil {
			return err
		}
		opts.Warn("curator: curator is not on PATH, so merge.curator.driver runs %s; if you move it, put curator on PATH or run `curator init --merge-driver` again\n", self)
		return nil
	}
	opts.Warn("curator: warning: merge.curator.driver runs %s, which git cannot find (not on PATH, or not an executable file): "+
		"git would leave each store file it merges as a conflict, whole. Put curator on PATH, or run: git config merge.curator.driver %q\n",
		d.Program, cmdutil.DriverCommand(self))
	return nil
}
