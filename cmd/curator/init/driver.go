package initcmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/storesync"
)

// checkDriver makes sure git can run the merge driver registered in the
// repository holding dir. curator's own definition, `curator merge-driver
// …`, is replaced by the path of this curator when `curator` is not on
// PATH; a definition of the user's whose program git cannot find is kept,
// with a warning that says how to fix it.
func checkDriver(opts *Options, dir string) error {
	d, err := storesync.ReadMergeDriver(dir)
	if err != nil || d.Command == "" || d.Found {
		return err
	}
	self, err := selfPath()
	if err != nil {
		return fmt.Errorf("finding this curator's path for the merge driver: %w", err)
	}
	if d.Command == mdstore.MergeDriverCommand {
		if err := storesync.SetMergeDriver(dir, storesync.DriverCommand(self)); err != nil {
			return err
		}
		opts.Warn("curator: curator is not on PATH, so merge.curator.driver runs %s; if you move it, put curator on PATH or run `curator init --merge-driver` again\n", self)
		return nil
	}
	opts.Warn("curator: warning: merge.curator.driver runs %s, which git cannot find (not on PATH, or not an executable file): "+
		"git would leave each store file it merges as a conflict, whole. Put curator on PATH, or run: git config merge.curator.driver %q\n",
		d.Program, storesync.DriverCommand(self))
	return nil
}

// selfPath is the absolute path of the running curator: the one it was
// started as (a symbolic link stays one, so that an upgrade in place
// keeps working), else the executable's.
func selfPath() (string, error) {
	if a := os.Args[0]; strings.ContainsRune(a, filepath.Separator) {
		return filepath.Abs(a)
	} else if p, err := exec.LookPath(a); err == nil {
		return filepath.Abs(p)
	}
	return os.Executable()
}
