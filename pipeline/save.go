package pipeline

import "fmt"

// Saver records the files of one pipeline run where the home keeps them:
// in a store, as one run of its transaction (one commit, the state
// backups git-ignored and written beside it); in a folder outside every
// store, as atomic files in their order, with no commit. Package
// pipelinehome has both.
type Saver interface {
	// Save writes files (home-relative, in order: a state backup before
	// the state it backs up) as one run, its commit message the summary
	// line and one line per decision, and returns the commit ("" when
	// none was made).
	Save(files []File, summary string, decisions []string) (commit string, err error)
}

// save writes the files of r that are still to be written (writes) with
// s, and returns the commit, if any. A run with nothing new writes
// nothing and makes no commit (a brief that differs only by its time, a
// dashboard as it was).
func (e *Env) save(s Saver, r *Report) (string, error) {
	files, err := e.writes(r)
	if err != nil || len(files) == 0 {
		return "", err
	}
	if s == nil {
		return "", fmt.Errorf("pipeline %s: %s writes no files", r.Project, r.Mode)
	}
	return s.Save(files, r.Summary(), r.Decisions)
}
