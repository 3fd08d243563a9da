package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-billy/v5/helper/mount"
	"github.com/go-git/go-billy/v5/helper/polyfill"
	"github.com/go-git/go-billy/v5/memfs"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// IsBareRepo says whether dir looks like a bare git repository (a HEAD
// file and an objects folder): where a server's hook runs, outside every
// store, audit reads the pushed tree's store from it.
func IsBareRepo(dir string) bool {
	_, errHead := os.Stat(filepath.Join(dir, "HEAD"))
	fi, errObj := os.Stat(filepath.Join(dir, "objects"))
	return errHead == nil && errObj == nil && fi.IsDir()
}

// openWithObjects opens the repository holding dir (a work tree's folder
// or a bare repository) reading objects from more folders first: the
// folders a pre-receive hook is given (GIT_OBJECT_DIRECTORY, its
// quarantine), where the objects of the push wait until the hook
// accepts them. A bare repository is dir itself.
func openWithObjects(dir string, bare bool, objectDirs []string) (*git.Repository, func(), error) {
	var repo *git.Repository
	var done func()
	var err error
	if bare {
		done = func() {}
		if repo, err = git.PlainOpen(dir); err != nil {
			err = fmt.Errorf("opening the git repository %s: %w", dir, err)
		}
	} else {
		repo, done, err = openRepo(dir)
	}
	if err != nil || len(objectDirs) == 0 {
		return repo, done, err
	}
	base, ok := repo.Storer.(*filesystem.Storage)
	if !ok {
		return repo, done, nil
	}
	st := &moreObjects{Storage: base}
	for _, d := range objectDirs {
		fs := polyfill.New(mount.New(memfs.New(), "objects", osfs.New(d)))
		more := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
		st.more = append(st.more, more)
	}
	r, err := git.Open(st, nil)
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("opening the git repository of %s: %w", dir, err)
	}
	return r, func() {
		for _, m := range st.more {
			m.Close()
		}
		done()
	}, nil
}

// moreObjects is a repository's storage that also reads the objects of
// other folders.
type moreObjects struct {
	*filesystem.Storage
	more []*filesystem.Storage
}

func (s *moreObjects) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := s.Storage.EncodedObject(t, h)
	if !errors.Is(err, plumbing.ErrObjectNotFound) {
		return o, err
	}
	for _, m := range s.more {
		if o, err := m.EncodedObject(t, h); err == nil {
			return o, nil
		}
	}
	return nil, err
}

func (s *moreObjects) HasEncodedObject(h plumbing.Hash) error {
	err := s.Storage.HasEncodedObject(h)
	if err == nil {
		return nil
	}
	for _, m := range s.more {
		if m.HasEncodedObject(h) == nil {
			return nil
		}
	}
	return err
}

func (s *moreObjects) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	n, err := s.Storage.EncodedObjectSize(h)
	if err == nil {
		return n, nil
	}
	for _, m := range s.more {
		if n, err := m.EncodedObjectSize(h); err == nil {
			return n, nil
		}
	}
	return n, err
}
