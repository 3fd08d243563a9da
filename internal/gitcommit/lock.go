package gitcommit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/curator-dev/curator/internal/durable"
)

// gitLock is a lock taken the way git takes its locks: the file `<name>.lock`
// created exclusively beside the file it guards, the new content written
// into it, then renamed over the file (commit) or removed (release). A lock
// that exists is never removed here unless this process created it.
type gitLock struct {
	target string
	path   string
	f      *os.File
	owner  *lockOwner
}

// takeGitLock creates target.lock, waiting up to timeout while another
// process holds it.
func takeGitLock(target string, timeout time.Duration, owner *lockOwner) (*gitLock, error) {
	path := target + ".lock"
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			l := &gitLock{target: target, path: path, f: f, owner: owner}
			if owner != nil {
				owner.add(path, f)
			}
			return l, nil
		}
		if errors.Is(err, os.ErrNotExist) {
			if mkErr := os.MkdirAll(filepath.Dir(path), 0o755); mkErr != nil {
				return nil, mkErr
			}
			continue
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("taking %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			return nil, &LockError{Path: path}
		}
		time.Sleep(wait)
		if wait < 50*time.Millisecond {
			wait *= 2
		}
	}
}

// write replaces the lock's content (it becomes the file's content on commit).
func (l *gitLock) write(data []byte, sync bool) error {
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	if _, err := l.f.WriteAt(data, 0); err != nil {
		return fmt.Errorf("writing %s: %w", l.path, err)
	}
	if sync {
		return l.f.Sync()
	}
	return durable.Later(l.f)
}

// commit renames the lock over the file it guards.
func (l *gitLock) commit() error {
	if l.f == nil {
		return errors.New("lock already released")
	}
	err := l.f.Close()
	l.f = nil
	if err == nil {
		err = os.Rename(l.path, l.target)
	}
	if err == nil {
		err = durable.LaterDir(filepath.Dir(l.target))
	}
	if err != nil {
		os.Remove(l.path)
	}
	if l.owner != nil {
		l.owner.drop(l.path)
	}
	return err
}

// release removes the lock, leaving the file it guards as it was. It does
// nothing after commit.
func (l *gitLock) release() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Close()
	l.f = nil
	os.Remove(l.path)
	if l.owner != nil {
		l.owner.drop(l.path)
	}
}

// lockOwner records, in a file of the caller's (Options.LockRecord), which
// of git's lock files this process created, so that after a crash the
// next run removes the locks it left (and only those: a lock file is recognised by its device
// and inode). Without the record a crashed run's index.lock would stop
// every git command until removed by hand.
type lockOwner struct {
	file  string
	locks map[string]fileID
}

type fileID struct {
	Dev uint64 `json:"dev"`
	Ino uint64 `json:"ino"`
}

func (o *lockOwner) add(path string, f *os.File) {
	if o.file == "" {
		return
	}
	id, ok := fileIdentity(f)
	if !ok {
		return
	}
	if o.locks == nil {
		o.locks = map[string]fileID{}
	}
	o.locks[path] = id
	o.save()
}

// drop forgets a lock this run committed or removed. The record is
// rewritten only when the last lock goes (a record naming a lock file that
// no longer exists, or has another inode, is harmless), so that releasing
// a lock costs no file write.
func (o *lockOwner) drop(path string) {
	if _, ok := o.locks[path]; !ok {
		return
	}
	delete(o.locks, path)
	if len(o.locks) == 0 {
		o.save()
	}
}

func (o *lockOwner) save() {
	if len(o.locks) == 0 {
		os.Remove(o.file)
		return
	}
	b, _ := json.Marshal(o.locks)
	// Not synced: if the record is lost in a power failure, the lock file
	// most likely is too; if not, git's own advice (remove it) applies.
	durable.WriteFile(o.file, b, 0o644, false)
}

// RemoveStaleLocks removes the git lock files that a crashed process
// recorded in record (its Options.LockRecord) and left behind, and the
// record. A lock file is removed only if it is the very file the process
// created (same device and inode). Callers make sure no process using
// that record is still running (curator holds the store's lock).
func RemoveStaleLocks(record string) error {
	b, err := os.ReadFile(record)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var locks map[string]fileID
	if err := json.Unmarshal(b, &locks); err == nil {
		for path, id := range locks {
			if got, ok := pathIdentity(path); ok && got == id {
				if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
					return fmt.Errorf("removing %s, left by a crashed curator run: %w", path, err)
				}
			}
		}
	}
	return os.Remove(record)
}
