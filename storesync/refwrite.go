package storesync

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage"
)

// go-git writes a ref in place: it opens the file, truncates it and then
// writes the new value, so a fetch killed between the two leaves an empty
// refs/remotes/<remote>/<branch>, and from then on every go-git read of
// the repository fails with "ref file is empty". The fetch's storage
// (fetchStorage) writes each ref whole instead: the value goes into a
// temporary file in the git folder itself (curator-ref-PID-*, outside
// refs/, where no reader lists it), is synced, and is renamed over the
// ref. A reader sees the old value or the new one, never a part.

// refTmp starts the names of curator's temporary ref files.
const refTmp = "curator-ref-"

// SetReference writes a fetched ref whole.
func (s fetchStorage) SetReference(r *plumbing.Reference) error {
	return s.writeRef(r)
}

// CheckAndSetReference writes a fetched ref whole if it still holds old.
func (s fetchStorage) CheckAndSetReference(r, old *plumbing.Reference) error {
	if old != nil {
		cur, err := s.Storage.Reference(old.Name())
		if err != nil && !errors.Is(err, plumbing.ErrReferenceNotFound) {
			return err
		}
		if cur != nil && cur.Hash() != old.Hash() {
			return storage.ErrReferenceHasChanged
		}
	}
	return s.writeRef(r)
}

func (s fetchStorage) writeRef(r *plumbing.Reference) error {
	name := r.Name().String()
	if !strings.HasPrefix(name, "refs/") || strings.Contains(name, "..") {
		return s.Storage.SetReference(r) // HEAD and the like: go-git's way
	}
	gitDir := s.gitDir()
	target := filepath.Join(gitDir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(gitDir, fmt.Sprintf("%s%d-", refTmp, os.Getpid()))
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.WriteString(r.Strings()[1] + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, target)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// gitDir is the git folder that holds the refs (a linked worktree's
// common folder): the one above objects/pack.
func (s fetchStorage) gitDir() string { return filepath.Dir(filepath.Dir(s.packDir)) }

// removeStaleRefTemps removes the temporary ref files that a killed fetch
// left in gitDir.
func removeStaleRefTemps(gitDir string) {
	ents, err := os.ReadDir(gitDir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), refTmp)
		if !ok {
			continue
		}
		var pid int
		digits, _, _ := strings.Cut(rest, "-")
		if _, err := fmt.Sscanf(digits, "%d", &pid); err == nil && (pid == os.Getpid() || !processAlive(pid)) {
			os.Remove(filepath.Join(gitDir, e.Name()))
		}
	}
}
