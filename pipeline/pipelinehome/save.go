package pipelinehome

import (
	"errors"
	"os"
	"path"
	"strings"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
)

// inside saves the files of a home in the store: they are part of it, so
// they are one run of the store's transaction (journal, one commit, as
// every curator run), but for the state backups, which are never
// committed (history is their backup): they are git-ignored and written
// beside the store run, after it.
type inside struct {
	tx   *mdstore.Tx
	home pipeline.Home
	// prefix is the home's store-relative folder.
	prefix string
	save   []mdstore.SaveOption
}

func (s *inside) Save(files []pipeline.File, summary string, decisions []string) (string, error) {
	var backups, committed []pipeline.File
	for _, f := range files {
		if pipeline.IsBackup(f.Name) {
			backups = append(backups, f)
		} else {
			committed = append(committed, f)
		}
	}
	run := storeRun(summary, decisions, committed, s.prefix, s.tx.Store.Now())
	if len(committed) > 0 {
		if ign, ok := ignoreBackups(s.home); !ok {
			run.Changes.Write(path.Join(s.prefix, ".gitignore"), ign)
		}
	}
	commit, err := s.tx.Save(run, s.save...)
	if err != nil {
		return "", err
	}
	return commit, writeHome(s.home, backups)
}

// outside saves the files of a home outside every store (--home DIR or
// CURATOR_SDD_HOME naming a folder elsewhere): there is nothing to
// commit, so they are written there by writeHome, each atomically, in
// their order (the backups before the state they back up).
type outside struct{ home pipeline.Home }

func (s outside) Save(files []pipeline.File, _ string, _ []string) (string, error) {
	return "", writeHome(s.home, files)
}

// ignoreBackups is the home's .gitignore with the rule that ignores the
// state backups, and whether it already held it.
func ignoreBackups(h pipeline.Home) ([]byte, bool) {
	p, err := h.Path(".gitignore")
	if err != nil {
		return nil, true
	}
	data, _ := os.ReadFile(p)
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == pipeline.BackupIgnore {
			return data, true
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	return append(data, pipeline.BackupIgnore+"\n"...), false
}

// storeRun is the store run that records files, in the home's
// store-relative folder prefix, with its commit message's summary and
// decisions.
func storeRun(summary string, decisions []string, files []pipeline.File, prefix string, at time.Time) *mdstore.Run {
	run := mdstore.NewRun(summary, at)
	for _, f := range files {
		if f.From != "" {
			run.Changes.Move(path.Join(prefix, f.From), path.Join(prefix, f.Name), f.Data)
		} else {
			run.Changes.Write(path.Join(prefix, f.Name), f.Data)
		}
	}
	run.Decide(decisions...)
	return run
}

// writeHome writes files into a home folder, in order, each atomically; a
// moved file's old name is removed after its new one is written.
func writeHome(h pipeline.Home, files []pipeline.File) error {
	for _, f := range files {
		abs, err := h.Path(f.Name)
		if err != nil {
			return err
		}
		if err := mdstore.WriteFileAtomic(abs, f.Data, 0o644); err != nil {
			return err
		}
		if f.From == "" {
			continue
		}
		from, err := h.Path(f.From)
		if err != nil {
			return err
		}
		if err := os.Remove(from); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
