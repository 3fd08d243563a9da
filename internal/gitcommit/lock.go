package gitcommit

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/curator-dev/curator/internal/durable"
)

// gitLock is a lock taken the way git takes its locks: the file `<name>.lock`
// created exclusively beside the file it guards, the new content written
// into it, then renamed over the file (commit) or removed (release).
//
// Git never removes a lock file it did not create: a lock left by a process
// that died stays until a person removes it, since git cannot tell it from
// the lock of a command still running. curator must do better, because it
// runs unattended, but by the same rule: it removes only a lock that is
// provably its own, and so it makes its locks recognisable before they
// exist. With a lock owner (see lockOwner), a lock is taken in three steps:
//
//  1. the owner's record names the lock and a twin file beside it,
//     `<name>.curator-<random>.lock`, which nobody else can name;
//  2. the twin is created exclusively;
//  3. the twin is hard-linked to `<name>.lock`; the link fails when the lock
//     exists (git's exclusive create), and then curator waits, as git does.
//
// From step 3 on, the lock and its twin are one file (same device and
// inode) until the lock is renamed or removed, and only then is the twin
// removed. So after a kill at any instant, the lock file at `<name>.lock`
// is curator's exactly when it is the same file as the twin the record
// names: a lock that git (or anyone) created is another file, whatever the
// record says, and is never removed. The twin keeps the file alive, so its
// inode cannot be reused by another lock while the record names it; no
// process id is trusted (ids are reused). A file system without hard links
// gets git's own exclusive create, and a lock left there by a kill is
// removed by hand, as git advises.
type gitLock struct {
	target string
	path   string
	twin   string // "" when the lock has none
	f      *os.File
	owner  *lockOwner
}

// takeGitLock creates target.lock, waiting up to timeout while another
// process holds it.
func takeGitLock(target string, timeout time.Duration, owner *lockOwner) (*gitLock, error) {
	path := target + ".lock"
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	l := &gitLock{target: target, path: path, owner: owner}
	for {
		err := l.create()
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, os.ErrExist) {
			l.abandon()
			return nil, fmt.Errorf("taking %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			l.abandon()
			return nil, &LockError{Path: path}
		}
		time.Sleep(wait)
		if wait < 50*time.Millisecond {
			wait *= 2
		}
	}
}

// create makes the lock file exist, or fails with os.ErrExist when
// another process holds it.
func (l *gitLock) create() error {
	if l.owner == nil || l.owner.file == "" || l.owner.noLinks {
		f, err := openExclusive(l.path)
		if err == nil {
			l.f = f
			l.created()
		}
		return err
	}
	if l.twin == "" {
		twin := strings.TrimSuffix(l.path, ".lock") + ".curator-" + randomTag() + ".lock"
		if err := l.owner.add(l.path, twin); err != nil {
			return err
		}
		f, err := openExclusive(twin)
		if err != nil {
			l.owner.drop(l.path)
			return err
		}
		l.twin, l.f = twin, f
	}
	err := os.Link(l.twin, l.path)
	if err == nil {
		l.created()
		return nil
	}
	if errors.Is(err, os.ErrExist) {
		return err
	}
	if _, statErr := os.Lstat(l.path); statErr == nil {
		return os.ErrExist // some systems report a failed link otherwise
	}
	// No hard links here: git's exclusive create, without a twin.
	l.f.Close()
	os.Remove(l.twin)
	l.owner.drop(l.path)
	l.twin, l.f = "", nil
	l.owner.noLinks = true
	return l.create()
}

// created runs the instant the lock exists at its path.
func (l *gitLock) created() {
	if lockHook != nil {
		lockHook(l.path)
	}
}

// abandon undoes what a lock that was never taken left: its twin and its
// entry in the record.
func (l *gitLock) abandon() {
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
	if l.twin != "" {
		os.Remove(l.twin)
		l.owner.drop(l.path)
	}
}

// openExclusive creates path exclusively, making its folder when missing.
func openExclusive(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, os.ErrNotExist) {
		if mkErr := os.MkdirAll(filepath.Dir(path), 0o755); mkErr != nil {
			return nil, mkErr
		}
		f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	}
	return f, err
}

func randomTag() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
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

// writeWith is write for content that fill writes as it makes it.
func (l *gitLock) writeWith(fill func(w io.Writer) error, sync bool) error {
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	fw := &fileWriter{w: io.NewOffsetWriter(l.f, 0)}
	if err := fill(fw); err != nil {
		if fw.err != nil {
			return fmt.Errorf("writing %s: %w", l.path, err)
		}
		return err
	}
	if sync {
		return l.f.Sync()
	}
	return durable.Later(l.f)
}

// fileWriter remembers whether a write to the file failed (as against the
// content that was being made).
type fileWriter struct {
	w   io.Writer
	err error
}

func (fw *fileWriter) Write(b []byte) (int, error) {
	n, err := fw.w.Write(b)
	if err != nil && fw.err == nil {
		fw.err = err
	}
	return n, err
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
	l.forget()
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
	l.forget()
}

// forget removes the twin once the lock is gone (never before: the twin is
// what makes the lock recognisable) and drops the lock from the record.
func (l *gitLock) forget() {
	if l.twin != "" {
		os.Remove(l.twin)
	}
	if l.owner != nil {
		l.owner.drop(l.path)
	}
}

// lockOwner records, in a file of the caller's (Options.LockRecord), each
// of git's lock files this process is about to create and its twin (see
// gitLock), before either exists, so that after a kill at any instant the
// next run removes the locks it left, and only those (RemoveStaleLocks).
// Without the record a crashed run's index.lock would stop every git
// command until removed by hand.
type lockOwner struct {
	file    string
	locks   map[string]string // lock file → its twin
	noLinks bool              // the file system has no hard links
}

// add records a lock and its twin before they are created.
func (o *lockOwner) add(path, twin string) error {
	if o.locks == nil {
		o.locks = map[string]string{}
	}
	o.locks[path] = twin
	if err := o.save(); err != nil {
		delete(o.locks, path)
		return err
	}
	return nil
}

// drop forgets a lock this run committed or removed. The record is
// rewritten only when the last lock goes (a record naming a lock whose twin
// no longer exists is harmless), so that releasing a lock costs no write.
func (o *lockOwner) drop(path string) {
	if _, ok := o.locks[path]; !ok {
		return
	}
	delete(o.locks, path)
	if len(o.locks) == 0 {
		o.save()
	}
}

func (o *lockOwner) save() error {
	if len(o.locks) == 0 {
		err := os.Remove(o.file)
		if errors.Is(err, os.ErrNotExist) {
			err = nil
		}
		return err
	}
	b, _ := json.Marshal(o.locks)
	// Written whole (a temporary file renamed), never half. Not synced: a
	// power failure that loses the record most likely loses the twin and
	// the lock too; if not, git's own advice (remove the lock) applies.
	if err := durable.WriteFile(o.file, b, 0o644, false); err != nil {
		return fmt.Errorf("recording the git locks curator takes: %w", err)
	}
	return nil
}

// RemoveStaleLocks removes the git lock files that a killed process
// recorded in record (its Options.LockRecord) and left behind, their twins,
// and the record. A lock file is removed only if it is the very file the
// process created: the same file as its twin (see gitLock); any other
// lock, git's own above all, is left alone. Callers make sure no process
// using that record is still running (curator holds the store's lock).
func RemoveStaleLocks(record string) error {
	b, err := os.ReadFile(record)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var locks map[string]json.RawMessage
	if json.Unmarshal(b, &locks) == nil {
		for path, v := range locks {
			var twin string
			if json.Unmarshal(v, &twin) != nil || !isTwinOf(twin, path) {
				continue // not a record this version wrote: nothing is trusted
			}
			if id, ok := pathIdentity(twin); ok {
				if got, ok := pathIdentity(path); ok && got == id {
					if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
						return fmt.Errorf("removing %s, left by a killed curator run: %w", path, err)
					}
				}
			}
			if err := os.Remove(twin); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("removing %s, left by a killed curator run: %w", twin, err)
			}
		}
	}
	return os.Remove(record)
}

// fileID is a file's identity: its device and inode (on Windows, the
// volume's serial number and the file's index).
type fileID struct {
	Dev uint64
	Ino uint64
}

// isTwinOf reports whether twin is named as the twin of lock path is, so
// that a damaged record never makes curator remove another file.
func isTwinOf(twin, path string) bool {
	base, ok := strings.CutSuffix(path, ".lock")
	if !ok {
		return false
	}
	tag, ok := strings.CutPrefix(twin, base+".curator-")
	return ok && strings.HasSuffix(tag, ".lock") && !strings.ContainsAny(tag, `/\`)
}
