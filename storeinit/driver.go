package storeinit

import (
	"fmt"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/storesync"
)

// checkDriver makes sure git can run the merge driver registered in the
// repository holding req.Dir. curator's own definition, `curator
// merge-driver …`, is replaced by the path of this curator when `curator`
// is not on PATH; a definition of the user's whose program git cannot
// find is kept, with a warning that says how to fix it.
func checkDriver(req Request, rep *Report) error {
	d, err := storesync.ReadMergeDriver(req.Dir)
	if err != nil || d.Command == "" || d.Found {
		return err
	}
	self, err := req.Self()
	if err != nil {
		return fmt.Errorf("finding this curator's path for the merge driver: %w", err)
	}
	if d.Command == mdstore.MergeDriverCommand {
		if err := storesync.SetMergeDriver(req.Dir, storesync.DriverCommand(self)); err != nil {
			return err
		}
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("curator is not on PATH, so merge.curator.driver runs %s; if you move it, put curator on PATH or run `curator init --merge-driver` again", self))
		return nil
	}
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("warning: merge.curator.driver runs %s, which git cannot find (not on PATH, or not an executable file): "+
		"git would leave each store file it merges as a conflict, whole. Put curator on PATH, or run: git config merge.curator.driver %q",
		d.Program, storesync.DriverCommand(self)))
	return nil
}
