package pipelinehome

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A project's state file is read from the home as it is; a project that
// cannot name one, a project with none and a state file leading out of
// the home are not there.
func TestReadStateFile(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "pipeline-state-shop.json"), []byte("{not json"), 0o644)
	outside := filepath.Join(t.TempDir(), "elsewhere.json")
	os.WriteFile(outside, []byte("{}"), 0o644)
	os.Symlink(outside, filepath.Join(home, "pipeline-state-out.json"))
	o := Options{Home: home}
	if data, err := ReadStateFile(o, "shop"); err != nil || string(data) != "{not json" {
		t.Errorf("shop: %q, %v", data, err)
	}
	for _, project := range []string{"none", "out", "../x"} {
		if data, err := ReadStateFile(o, project); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %q, %v; want fs.ErrNotExist", project, data, err)
		}
	}
}
