package watch

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// syncFolderPrefix starts the name of a sync folder; the process id that
// made it follows, so that the folder a killed process left behind can be
// told apart from one in use.
func syncFolderPrefix() string { return "curator-watch-" + strconv.Itoa(os.Getpid()) + "-" }

// staleSyncFolder is the name of a sync folder: the maker's process id, then
// os.MkdirTemp's random part.
var staleSyncFolder = regexp.MustCompile(`^curator-watch-([0-9]+)-[0-9]+$`)

// syncMarker is the name of a marker file.
var syncMarker = regexp.MustCompile(`^s[0-9]+$`)

// removeStaleSyncFolders removes the sync folders of processes that no
// longer run (a watcher killed before it could remove its own): only a
// folder holding nothing but marker files, so nothing else is lost.
func removeStaleSyncFolders() {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := staleSyncFolder.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() || processRuns(pid) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		markers := true
		for _, f := range files {
			markers = markers && f.Type().IsRegular() && syncMarker.MatchString(f.Name())
		}
		if markers {
			os.RemoveAll(dir)
		}
	}
}
