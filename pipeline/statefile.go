package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// File is one file a mode writes, relative to the pipeline home. With From
// set, the file at From is moved to Name (Data is its content).
type File struct {
	Name string
	Data []byte
	From string
}

// loaded is a state file as found on disk.
type loaded struct {
	State *State
	Raw   []byte
	// Aside is the move that keeps a corrupt state file aside.
	Aside *File
	// Previous is the newest readable backup when the state was corrupt.
	Previous *State
	Problem  string
}

// ParseState decodes a state file and checks the fields curator needs.
func ParseState(data []byte) (*State, error) {
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, err
	}
	if st.PipelineType == "" || len(st.Phases) == 0 {
		return nil, errors.New("pipeline_type or phases missing")
	}
	return &st, nil
}

// loadState reads a project's state. A state file that cannot be read is
// never overwritten: it is moved aside to .corrupt-<time> (-2, -3, … after
// one kept aside in the same second; reported) and the
// newest readable backup is returned as Previous for reconstruction.
func loadState(h Home, project string, backups int, now time.Time) (*loaded, error) {
	name := StateName(project)
	path, err := h.Path(name)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &loaded{}, nil
	}
	if err != nil {
		return nil, err
	}
	st, perr := ParseState(data)
	if perr == nil {
		return &loaded{State: st, Raw: data}, nil
	}
	aside := asideName(h, name+".corrupt-"+now.UTC().Format("20060102T150405Z"))
	l := &loaded{Aside: &File{Name: aside, From: name, Data: data},
		Problem: fmt.Sprintf("state file %s is corrupt (%v); kept aside as %s and reconstructed", path, perr, aside)}
	for i := 1; i <= max(backups, 5); i++ {
		p, err := h.Path(BackupName(project, i))
		if err != nil {
			break
		}
		if b, err := os.ReadFile(p); err == nil {
			if prev, err := ParseState(b); err == nil {
				l.Previous = prev
				break
			}
		}
	}
	return l, nil
}

// asideName is name, or name-2, name-3, … : the first no file of the home
// has, so that a corrupt state kept aside never replaces one kept before
// in the same second.
func asideName(h Home, name string) string {
	try := name
	for n := 2; n <= 1000; n++ { // a home that cannot be stated gets the last
		p, err := h.Path(try)
		if err != nil {
			return try
		}
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return try
		}
		try = fmt.Sprintf("%s-%d", name, n)
	}
	return try
}

// stateFiles renders the new state and rotates the backups: the state being
// replaced becomes .bak.1, .bak.i becomes .bak.i+1, up to n backups. The
// backups come first, the oldest first, and the state last, so that files
// written in this order lose no state kept: at every point each one is in
// the state file or a backup. The project folder is stored as shown says
// (relative to the repository, or "~/…" under the user's home folder).
func stateFiles(h Home, project string, st *State, old []byte, n int, shown func(string) string) ([]File, error) {
	stored := *st
	stored.ProjectPath = shown(st.ProjectPath)
	data, err := json.MarshalIndent(stored, "", "  ")
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')
	state := File{Name: StateName(project), Data: data}
	if n <= 0 || old == nil || string(old) == string(data) {
		return []File{state}, nil
	}
	var files []File
	for i := n - 1; i >= 1; i-- {
		p, err := h.Path(BackupName(project, i))
		if err != nil {
			return nil, err
		}
		if b, err := os.ReadFile(p); err == nil {
			files = append(files, File{Name: BackupName(project, i+1), Data: b})
		}
	}
	return append(files, File{Name: BackupName(project, 1), Data: old}, state), nil
}
