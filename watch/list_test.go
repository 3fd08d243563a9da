package watch

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// listFolder names what os.ReadDir names: every subfolder (a link to a
// folder is no subfolder), and with all every other entry too, in a folder
// large enough to take several reads.
func TestListFolderAsReadDir(t *testing.T) {
	dir := t.TempDir()
	for i := range 3000 {
		if err := os.WriteFile(filepath.Join(dir, "m-"+strconv.Itoa(i)+".md"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range []string{"a", "zz", "with space", "ünï"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "link")); err != nil {
		t.Skip(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var wantFolders, wantAll []string
	for _, e := range entries {
		wantAll = append(wantAll, e.Name())
		if e.IsDir() {
			wantFolders = append(wantFolders, e.Name())
		}
	}
	for _, all := range []bool{false, true} {
		var folders, names []string
		if err := listFolder(dir, all, func(name string, folder bool) {
			names = append(names, name)
			if folder {
				folders = append(folders, name)
			}
		}); err != nil {
			t.Fatal(err)
		}
		slices.Sort(folders)
		slices.Sort(names)
		want := wantFolders
		if all {
			want = wantAll
		}
		if !slices.Equal(folders, wantFolders) || !slices.Equal(names, want) {
			t.Fatalf("all=%v: folders %q, %d names; want %q, %d names", all, folders, len(names), wantFolders, len(want))
		}
	}
	if err := listFolder(filepath.Join(dir, "missing"), true, func(string, bool) {}); !os.IsNotExist(err) {
		t.Fatalf("a missing folder: %v, want not exist", err)
	}
}
