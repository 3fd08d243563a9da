package gitcommit

import (
	"errors"
	"fmt"
)

// ErrDetachedHead, ErrMergeInProgress and ErrNoRepository are why a commit
// is refused.
var (
	ErrDetachedHead    = errors.New("HEAD is detached; check out a branch before curating")
	ErrMergeInProgress = errors.New("a git merge is in progress; finish or abort it before curating")
	ErrNoRepository    = errors.New("the store is not inside a git repository (run `curator init` or pass --no-commit)")
)

// ErrSetting means a git setting of the repository is one curator
// cannot commit under without breaking the user's repository.
var ErrSetting = errors.New("unsupported git repository setting")

// ErrLocked means another git process holds a lock curator needs: a
// `git add`, `git commit`, `git stash` or `git checkout` running beside the
// run. Nothing was changed; the run can be tried again.
var ErrLocked = errors.New("another git process is changing the repository")

// LockError names the lock file git holds.
type LockError struct{ Path string }

func (e *LockError) Error() string {
	return fmt.Sprintf("%v: %s exists; try again when that git command ends (if no git process is running, a crashed one left it: remove the file)", ErrLocked, e.Path)
}

func (e *LockError) Unwrap() error { return ErrLocked }
